package dev.cairn.compaction.testing;

import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import dev.cairn.model.BufferedLevels;
import dev.cairn.model.TableFile;
import dev.cairn.model.UserKeyOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A text form of levels with compaction buffers, for golden files:
 *
 * <pre>
 * files: 1[a..c] 2[d..f] 3[a..z]   every file once: number, user-key range (largest sequence = number)
 * L1: 1 2                          level 1's files, by number
 * B2.9: #3 #4[a..c] x[d..f]        level 2's buffer run 9: whole file 3, part a..c of file 4, a marker
 *                                  (printed f[d..f] when it is a filter marker; read back plain)
 * B2.7: #5+{4: #6; 3: x[a..b] #7}  file 5 carrying runs 4 and 3 (newest first)
 * </pre>
 *
 * Runs of a level are listed in any order; {@link #render} prints them newest first. Keys are
 * printable ASCII; {@code \x00}-style escapes are read back as bytes.
 */
public final class BufferText {
  private BufferText() {}

  /** A table file of the golden files: size 1000, largest sequence = number. */
  public record TestFile(long number, byte[] smallestUserKey, byte[] largestUserKey) implements TableFile {
    @Override public long totalBytes() { return 1000; }
    @Override public long largestSequence() { return number; }

    @Override
    public boolean equals(Object o) {
      return o instanceof TestFile f && f.number == number && Arrays.equals(f.smallestUserKey, smallestUserKey)
          && Arrays.equals(f.largestUserKey, largestUserKey);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(number);
    }

    @Override
    public String toString() {
      return "#" + number;
    }
  }

  /** Parsed levels: files by number, level files, buffer runs. */
  public static final class Levels implements BufferedLevels<TestFile> {
    public final Map<Long, TestFile> files = new HashMap<>();
    private final Map<Integer, List<TestFile>> levelFiles = new TreeMap<>();
    private final Map<Integer, TreeMap<Long, BufferRun<TestFile>>> runs = new TreeMap<>();

    @Override
    public List<TestFile> files(int level) {
      return levelFiles.getOrDefault(level, List.of());
    }

    @Override
    public List<BufferRun<TestFile>> bufferRuns(int level) {
      TreeMap<Long, BufferRun<TestFile>> byId = runs.get(level);
      return byId == null ? List.of() : List.copyOf(byId.descendingMap().values());
    }

    public int maxLevel() {
      int max = 0;
      for (int l : levelFiles.keySet()) {
        max = Math.max(max, l);
      }
      for (int l : runs.keySet()) {
        max = Math.max(max, l);
      }
      return max;
    }

    public TestFile file(String number) {
      TestFile f = files.get(Long.parseLong(number.trim()));
      if (f == null) {
        throw new IllegalArgumentException("file " + number + " is not declared in files:");
      }
      return f;
    }
  }

  /**
   * Reads the lines it knows ({@code files:}, {@code L<n>:}, {@code B<n>.<id>:}) and returns the
   * others, in order, for the caller's own directives.
   */
  public static List<String> parse(List<String> lines, Levels into) {
    List<String> rest = new ArrayList<>();
    for (String raw : lines) {
      String line = raw.trim();
      if (line.startsWith("files:")) {
        for (String token : line.substring(6).trim().split("\\s+")) {
          int open = token.indexOf('[');
          long number = Long.parseLong(token.substring(0, open));
          byte[][] range = range(token.substring(open));
          into.files.put(number, new TestFile(number, range[0], range[1]));
        }
      } else if (line.matches("L\\d+:.*")) {
        int level = Integer.parseInt(line.substring(1, line.indexOf(':')));
        List<TestFile> files = new ArrayList<>();
        for (String n : line.substring(line.indexOf(':') + 1).trim().split("\\s+")) {
          if (!n.isEmpty()) {
            files.add(into.file(n));
          }
        }
        into.levelFiles.put(level, files);
      } else if (line.matches("B\\d+\\.-?\\d+:.*")) {
        int level = Integer.parseInt(line.substring(1, line.indexOf('.')));
        long id = Long.parseLong(line.substring(line.indexOf('.') + 1, line.indexOf(':')));
        List<BufferEntry<TestFile>> entries = entries(line.substring(line.indexOf(':') + 1), into);
        into.runs.computeIfAbsent(level, l -> new TreeMap<>()).put(id, new BufferRun<>(id, entries));
      } else {
        rest.add(raw);
      }
    }
    return rest;
  }

  private static List<BufferEntry<TestFile>> entries(String text, Levels levels) {
    List<BufferEntry<TestFile>> out = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == ' ') {
        i++;
      } else if (c == 'x') {
        int end = text.indexOf(']', i);
        byte[][] r = range(text.substring(i + 1, end + 1));
        out.add(new BufferEntry.Removed<>(r[0], r[1]));
        i = end + 1;
      } else if (c == '#') {
        int j = i + 1;
        while (j < text.length() && Character.isDigit(text.charAt(j))) {
          j++;
        }
        TestFile f = levels.file(text.substring(i + 1, j));
        byte[] lo = f.smallestUserKey();
        byte[] hi = f.largestUserKey();
        if (j < text.length() && text.charAt(j) == '[') {
          int end = text.indexOf(']', j);
          byte[][] r = range(text.substring(j, end + 1));
          lo = r[0];
          hi = r[1];
          j = end + 1;
        }
        List<BufferRun<TestFile>> carried = List.of();
        if (j + 1 < text.length() && text.charAt(j) == '+' && text.charAt(j + 1) == '{') {
          int end = matching(text, j + 1);
          carried = carried(text.substring(j + 2, end), levels);
          j = end + 1;
        }
        out.add(new BufferEntry.File<>(f, lo, hi, carried));
        i = j;
      } else {
        throw new IllegalArgumentException("cannot read buffer entries at: " + text.substring(i));
      }
    }
    return out;
  }

  private static List<BufferRun<TestFile>> carried(String text, Levels levels) {
    List<BufferRun<TestFile>> runs = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i <= text.length(); i++) {
      char c = i < text.length() ? text.charAt(i) : ';';
      if (c == '{') {
        depth++;
      } else if (c == '}') {
        depth--;
      } else if (c == ';' && depth == 0) {
        String run = text.substring(start, i).trim();
        long id = Long.parseLong(run.substring(0, run.indexOf(':')).trim());
        runs.add(new BufferRun<>(id, entries(run.substring(run.indexOf(':') + 1), levels)));
        start = i + 1;
      }
    }
    return runs;
  }

  private static int matching(String text, int open) {
    int depth = 0;
    for (int i = open; i < text.length(); i++) {
      if (text.charAt(i) == '{') {
        depth++;
      } else if (text.charAt(i) == '}' && --depth == 0) {
        return i;
      }
    }
    throw new IllegalArgumentException("unbalanced braces in: " + text);
  }

  /** {@code [lo..hi]} as two keys. */
  public static byte[][] range(String bracketed) {
    String inner = bracketed.substring(1, bracketed.length() - 1);
    int dots = inner.indexOf("..");
    return new byte[][] {key(inner.substring(0, dots)), key(inner.substring(dots + 2))};
  }

  /** A printable key with {@code \xNN} escapes. */
  public static byte[] key(String text) {
    List<Byte> bytes = new ArrayList<>();
    for (int i = 0; i < text.length(); i++) {
      if (text.startsWith("\\x", i)) {
        bytes.add((byte) Integer.parseInt(text.substring(i + 2, i + 4), 16));
        i += 3;
      } else {
        bytes.add((byte) text.charAt(i));
      }
    }
    byte[] out = new byte[bytes.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = bytes.get(i);
    }
    return out;
  }

  /** Every buffer run of {@code levels} 1..maxLevel, one line each, newest first per level. */
  public static List<String> render(BufferedLevels<TestFile> levels, int maxLevel) {
    List<String> out = new ArrayList<>();
    for (int level = 1; level <= maxLevel; level++) {
      for (BufferRun<TestFile> run : levels.bufferRuns(level)) {
        out.add("B" + level + "." + run.id() + ": " + render(run.entries()));
      }
    }
    return out;
  }

  public static String render(List<BufferEntry<TestFile>> entries) {
    StringBuilder sb = new StringBuilder();
    for (BufferEntry<TestFile> e : entries) {
      if (sb.length() > 0) {
        sb.append(' ');
      }
      sb.append(render(e));
    }
    return sb.toString();
  }

  public static String render(BufferEntry<TestFile> e) {
    if (e instanceof BufferEntry.Removed<TestFile> r) {
      return (r.hidesAll() ? "x[" : "f[") + UserKeyOrder.printable(r.smallestUserKey()) + ".." + UserKeyOrder.printable(r.largestUserKey()) + "]";
    }
    BufferEntry.File<TestFile> f = (BufferEntry.File<TestFile>) e;
    StringBuilder sb = new StringBuilder("#").append(f.meta().number());
    if (!f.whole()) {
      sb.append('[').append(UserKeyOrder.printable(f.smallestUserKey())).append("..")
          .append(UserKeyOrder.printable(f.largestUserKey())).append(']');
    }
    if (!f.carried().isEmpty()) {
      sb.append("+{");
      for (int i = 0; i < f.carried().size(); i++) {
        BufferRun<TestFile> run = f.carried().get(i);
        sb.append(i > 0 ? "; " : "").append(run.id()).append(": ").append(render(run.entries()));
      }
      sb.append('}');
    }
    return sb.toString();
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}

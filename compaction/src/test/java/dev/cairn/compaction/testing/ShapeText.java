package dev.cairn.compaction.testing;

import dev.cairn.compaction.ByteSizes;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.LevelScore;
import dev.cairn.compaction.leveled.LeveledConfig;
import dev.cairn.model.FileDescriptor;
import dev.cairn.model.LevelShape;
import dev.cairn.model.LsmShape;
import dev.cairn.model.UserKeyOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The text form of shapes and plans used by the golden picker tests.
 *
 * <pre>
 * config levels=4 trigger=4 base=10MiB ratio=10 target=2MiB   (all optional; these are defaults)
 * L0: 7[a..c 2MiB] 6[b..d 2MiB]        L0 in any order; sorted newest first by seq (default: id)
 * L1: 3[a..b 5MiB] 4[c..f 5MiB]        a file: id[smallest..largest size key=value...]
 * pointer L1 = b                       the level's compaction pointer
 * busy: 3 4                            ids of files running compactions hold
 * </pre>
 *
 * File options: {@code seq=N} (creation and largest sequence), {@code valid=SIZE},
 * {@code cached=F}. Keys are ASCII without spaces or brackets.
 */
public final class ShapeText {
  private static final Pattern FILE = Pattern.compile("(\\d+)\\[([^\\]]*)\\]");
  private static final Pattern LEVEL_LINE = Pattern.compile("([LB])(\\d+):(.*)");
  private static final Pattern POINTER = Pattern.compile("pointer L(\\d+) = (\\S+)");

  /** A parsed scenario. */
  public record Scenario(LeveledConfig config, LsmShape shape, Set<Long> busy) {}

  private ShapeText() {}

  public static Scenario parse(List<String> lines) {
    Map<String, String> settings = new HashMap<>();
    Map<Integer, List<FileDescriptor>> levels = new HashMap<>();
    Map<Integer, byte[]> pointers = new HashMap<>();
    Set<Long> busy = new HashSet<>();
    for (String raw : lines) {
      String line = raw.trim();
      Matcher m;
      if (line.startsWith("config")) {
        for (String kv : line.substring("config".length()).trim().split("\\s+")) {
          String[] parts = kv.split("=", 2);
          settings.put(parts[0], parts[1]);
        }
      } else if (line.startsWith("busy")) {
        for (String id : line.replaceFirst("busy:?", "").trim().split("\\s+")) {
          if (!id.isEmpty()) {
            busy.add(Long.parseLong(id));
          }
        }
      } else if ((m = POINTER.matcher(line)).matches()) {
        pointers.put(Integer.parseInt(m.group(1)), key(m.group(2)));
      } else if ((m = LEVEL_LINE.matcher(line)).matches()) {
        int level = Integer.parseInt(m.group(2));
        List<FileDescriptor> files = parseFiles(m.group(3));
        levels.computeIfAbsent(level, l -> new ArrayList<>()).addAll(files);
      } else {
        throw new IllegalArgumentException("cannot parse shape line: " + raw);
      }
    }
    LeveledConfig config = config(settings);
    LsmShape.Builder builder = LsmShape.builder(config.numLevels());
    for (int level = 0; level < config.numLevels(); level++) {
      builder.level(LevelShape.of(level, levels.getOrDefault(level, List.of())));
      builder.compactionPointer(level, pointers.get(level));
    }
    return new Scenario(config, builder.build(), busy);
  }

  private static LeveledConfig config(Map<String, String> s) {
    long target = ByteSizes.parse(s.getOrDefault("target", "2MiB"));
    return new LeveledConfig(
        Integer.parseInt(s.getOrDefault("levels", "4")),
        Integer.parseInt(s.getOrDefault("trigger", "4")),
        ByteSizes.parse(s.getOrDefault("base", "10MiB")),
        Double.parseDouble(s.getOrDefault("ratio", "10")),
        target,
        s.containsKey("grandparent") ? ByteSizes.parse(s.get("grandparent")) : 10 * target,
        s.containsKey("expanded") ? ByteSizes.parse(s.get("expanded")) : 25 * target);
  }

  static List<FileDescriptor> parseFiles(String text) {
    List<FileDescriptor> files = new ArrayList<>();
    Matcher m = FILE.matcher(text);
    int end = 0;
    while (m.find()) {
      if (!text.substring(end, m.start()).isBlank()) {
        throw new IllegalArgumentException("junk between files: " + text);
      }
      end = m.end();
      long id = Long.parseLong(m.group(1));
      String[] parts = m.group(2).trim().split("\\s+");
      String[] keys = parts[0].split("\\.\\.", 2);
      long size = ByteSizes.parse(parts[1]);
      long seq = id;
      long valid = size;
      double cached = 0.0;
      for (int i = 2; i < parts.length; i++) {
        String[] kv = parts[i].split("=", 2);
        switch (kv[0]) {
          case "seq" -> seq = Long.parseLong(kv[1]);
          case "valid" -> valid = ByteSizes.parse(kv[1]);
          case "cached" -> cached = Double.parseDouble(kv[1]);
          default -> throw new IllegalArgumentException("unknown file option " + parts[i]);
        }
      }
      files.add(new FileDescriptor(id, key(keys[0]), key(keys[1]), size, 0, valid, cached, seq, seq));
    }
    if (!text.substring(end).isBlank()) {
      throw new IllegalArgumentException("junk after files: " + text);
    }
    return files;
  }

  public static byte[] key(String text) {
    return text.equals("*") ? null : text.getBytes(StandardCharsets.US_ASCII);
  }

  public static String render(FileDescriptor f) {
    return f.id() + "[" + UserKeyOrder.printable(f.smallestKey()) + ".."
        + UserKeyOrder.printable(f.largestKey()) + " " + ByteSizes.format(f.sizeBytes()) + "]";
  }

  public static String render(List<FileDescriptor> files) {
    return files.isEmpty() ? "-" : files.stream().map(ShapeText::render).collect(Collectors.joining(" "));
  }

  public static String render(Optional<CompactionPlan> plan) {
    if (plan.isEmpty()) {
      return "no compaction";
    }
    CompactionPlan p = plan.get();
    byte[] pointer = p.newCompactionPointer();
    return String.join("\n",
        p.kind() + " L" + p.inputLevel() + " -> L" + p.outputLevel(),
        "inputs: " + render(p.inputs()),
        "targets: " + render(p.targets()),
        "grandparents: " + render(p.grandparents()),
        "pointer: L" + p.inputLevel() + " = "
            + (pointer == null ? "-" : UserKeyOrder.printable(pointer)),
        "bottommost: " + p.bottommost(),
        "reason: " + p.reason());
  }

  public static String renderScores(List<LevelScore> scores) {
    return scores.stream()
        .map(s -> String.format(java.util.Locale.ROOT, "L%d %.2f (%s / %s)", s.level(), s.score(),
            s.level() == 0 ? s.current() + " files" : ByteSizes.format(s.current()),
            s.level() == 0 ? String.valueOf(s.limit()) : ByteSizes.format(s.limit())))
        .collect(Collectors.joining("\n"));
  }
}

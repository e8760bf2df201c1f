package dev.cairn.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DynamicTest;

/**
 * A golden test file in the style of pebble's datadriven package. Each case is: input lines (the
 * first is the command), a line {@code ----}, the expected output, then a blank line or the end
 * of the file. Lines starting with {@code #} outside expected output are comments. Expected
 * output never contains blank lines.
 *
 * <p>Run with {@code -Dcairn.rewrite=true} to overwrite every expected output with the actual
 * one; review the diff before committing.
 */
public final class DataDrivenFile {
  public static final String SEPARATOR = "----";

  /** One case; line numbers are 1-based, {@code expectedFrom..expectedTo} is half-open (0-based). */
  public record Case(Path file, int line, List<String> input, List<String> expected,
      int expectedFrom, int expectedTo) {

    public String command() {
      return input.get(0);
    }

    /** The command's first word: what the case asks. */
    public String verb() {
      return command().trim().split("\\s+")[0];
    }

    /** The command's {@code key=value} words after the first ({@code key} alone: empty value). */
    public Map<String, String> args() {
      return keyValues(command());
    }

    /** The input lines after the command. */
    public List<String> body() {
      return input.subList(1, input.size());
    }

    public String name() {
      return file.getFileName() + ":" + line + " " + command();
    }
  }

  private final Path file;
  private final List<String> lines;
  private final List<Case> cases;

  private DataDrivenFile(Path file, List<String> lines) {
    this.file = file;
    this.lines = lines;
    this.cases = parse(file, lines);
  }

  public static DataDrivenFile read(Path file) {
    try {
      return new DataDrivenFile(file, Files.readAllLines(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The {@code key=value} words of {@code line} after its first word; a bare key has an empty value. */
  public static Map<String, String> keyValues(String line) {
    String[] words = line.trim().split("\\s+");
    Map<String, String> out = new HashMap<>();
    for (int i = 1; i < words.length; i++) {
      String[] kv = words[i].split("=", 2);
      out.put(kv[0], kv.length > 1 ? kv[1] : "");
    }
    return out;
  }

  public static boolean rewriteRequested() {
    return Boolean.getBoolean("cairn.rewrite");
  }

  public List<Case> cases() {
    return cases;
  }

  private static List<Case> parse(Path file, List<String> lines) {
    List<Case> cases = new ArrayList<>();
    int i = 0;
    while (i < lines.size()) {
      String line = lines.get(i);
      if (line.isBlank() || line.startsWith("#")) {
        i++;
        continue;
      }
      int start = i;
      List<String> input = new ArrayList<>();
      while (i < lines.size() && !lines.get(i).equals(SEPARATOR)) {
        if (lines.get(i).isBlank()) {
          throw new IllegalArgumentException(
              file + ":" + (i + 1) + ": blank line before " + SEPARATOR);
        }
        if (!lines.get(i).startsWith("#")) {
          input.add(lines.get(i));
        }
        i++;
      }
      if (i == lines.size()) {
        throw new IllegalArgumentException(file + ":" + (start + 1) + ": case without " + SEPARATOR);
      }
      i++;
      int expectedFrom = i;
      List<String> expected = new ArrayList<>();
      while (i < lines.size() && !lines.get(i).isBlank()) {
        expected.add(lines.get(i));
        i++;
      }
      cases.add(new Case(file, start + 1, List.copyOf(input), List.copyOf(expected), expectedFrom, i));
    }
    return cases;
  }

  /**
   * Runs every case; returns the actual outputs in case order. When a rewrite is requested, the
   * file is rewritten with them.
   */
  public List<String> run(Function<Case, String> runner) {
    List<String> actual = new ArrayList<>();
    for (Case c : cases) {
      String out;
      try {
        out = runner.apply(c);
      } catch (RuntimeException e) {
        out = "error: " + e.getMessage();
      }
      if (out.lines().anyMatch(String::isBlank)) {
        throw new IllegalStateException(c.name() + ": output must not contain blank lines");
      }
      actual.add(out);
    }
    if (rewriteRequested()) {
      rewrite(actual);
    }
    return actual;
  }

  private void rewrite(List<String> actual) {
    List<String> out = new ArrayList<>();
    int next = 0;
    for (int k = 0; k < cases.size(); k++) {
      Case c = cases.get(k);
      out.addAll(lines.subList(next, c.expectedFrom()));
      out.addAll(actual.get(k).lines().toList());
      next = c.expectedTo();
    }
    out.addAll(lines.subList(next, lines.size()));
    try {
      Files.write(file, out, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The source-tree path of a module's test resource {@code relative} (under {@code
   * src/test/resources}), whether tests run from the module or from the repository root: golden
   * files are read from the source tree, not the classpath, so that a rewrite lands in the source.
   */
  public static Path sourcePath(String module, String relative) {
    Path inModule = Path.of("src/test/resources").resolve(relative);
    return Files.exists(inModule) ? inModule : Path.of(module, "src/test/resources").resolve(relative);
  }

  /**
   * The shared golden runner: one dynamic test per case of {@code path} (a golden file, or a
   * folder whose {@code *.txt} files are run in name order), each comparing the runner's output
   * with the expected one; with {@code -Dcairn.rewrite=true} the files are rewritten instead.
   * Fails when there is no case at all, so a misplaced folder cannot pass silently.
   */
  public static Stream<DynamicTest> dynamicTests(Path path, Function<Case, String> runner) {
    List<Path> files;
    if (Files.isDirectory(path)) {
      try (Stream<Path> listing = Files.list(path)) {
        files = listing.filter(p -> p.toString().endsWith(".txt")).sorted().toList();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    } else {
      files = List.of(path);
    }
    List<DynamicTest> tests = new ArrayList<>();
    for (Path file : files) {
      DataDrivenFile golden = read(file);
      List<String> actual = golden.run(runner);
      for (int i = 0; i < golden.cases().size(); i++) {
        Case c = golden.cases().get(i);
        String out = actual.get(i);
        tests.add(DynamicTest.dynamicTest(c.name(), () -> {
          if (!rewriteRequested()) {
            Assertions.assertEquals(String.join("\n", c.expected()), out,
                c.name() + " (rerun with -Dcairn.rewrite=true to accept)");
          }
        }));
      }
    }
    Assertions.assertFalse(tests.isEmpty(), "no golden cases under " + path.toAbsolutePath());
    return tests.stream();
  }
}

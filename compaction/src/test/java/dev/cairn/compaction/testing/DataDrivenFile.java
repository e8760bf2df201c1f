package dev.cairn.compaction.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

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
}

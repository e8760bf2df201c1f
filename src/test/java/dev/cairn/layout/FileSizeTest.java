package dev.cairn.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No main source file is longer than {@link #MAX_LINES}: a class past it does more than one job
 * and is split along the seam it already has (docs/architecture.md, "Modules"). Tests are exempt:
 * a test class may hold many cases of one behaviour.
 */
class FileSizeTest {
  static final int MAX_LINES = 450;

  @Test
  void noMainSourceFileIsLongerThanTheLimit() throws IOException {
    Path here = Path.of("").toAbsolutePath();
    Path root = Files.exists(here.resolve("model")) ? here : here.getParent();
    List<Path> sources;
    try (Stream<Path> files = Files.walk(root)) {
      sources = files.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> root.relativize(p).toString().contains("/src/main/"))
          .filter(p -> !p.toString().contains("/target/"))
          .sorted().toList();
    }
    assertTrue(sources.size() > 100, "found only " + sources.size() + " main sources under " + root);
    List<String> tooLong = sources.stream()
        .filter(p -> lines(p) > MAX_LINES)
        .map(p -> root.relativize(p) + " has " + lines(p) + " lines")
        .toList();
    assertEquals(List.of(), tooLong, "main source files over " + MAX_LINES + " lines");
  }

  private static long lines(Path p) {
    try (Stream<String> lines = Files.lines(p)) {
      return lines.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

package dev.cairn.bench.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Sizes and removal of database directories, tolerant of files an engine deletes meanwhile. */
public final class DirectorySize {
  private DirectorySize() {}

  /** Sum of the sizes of the regular files under {@code dir}; 0 if it is gone. */
  public static long of(Path dir) {
    long total = 0;
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        try {
          if (Files.isRegularFile(p)) {
            total += Files.size(p);
          }
        } catch (NoSuchFileException e) {
          // Deleted by a compaction between listing and stat: it no longer counts.
        }
      }
    } catch (NoSuchFileException e) {
      return 0;
    } catch (IOException | UncheckedIOException e) {
      return total;
    }
    return total;
  }

  public static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }
}

package dev.cairn.bench.copies;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The files of a checkpoint or backup directory: their bytes, and which tables share their file with another name. */
final class DirectoryFiles {
  private DirectoryFiles() {}

  /** One table file: its size and how many names its file has (2 or more: a hard link). */
  record TableFile(Path path, long bytes, int names) {
    boolean linked() {
      return names > 1;
    }
  }

  /** The bytes of the regular files under {@code dir}, every name counted in full (0 if it is absent). */
  static long bytes(Path dir) {
    return regularFiles(dir).stream().mapToLong(DirectoryFiles::size).sum();
  }

  /** The regular files under {@code dir} (none if it is absent). */
  static int count(Path dir) {
    return regularFiles(dir).size();
  }

  /** The tables ({@code *.sst}) under {@code dir}, each with its link count ({@code unix:nlink}). */
  static List<TableFile> tables(Path dir) {
    List<TableFile> out = new ArrayList<>();
    for (Path p : regularFiles(dir)) {
      if (p.getFileName().toString().endsWith(".sst")) {
        try {
          out.add(new TableFile(p, Files.size(p), (Integer) Files.getAttribute(p, "unix:nlink")));
        } catch (IOException e) {
          throw new UncheckedIOException("reading the size and link count of " + p, e);
        } catch (UnsupportedOperationException e) {
          throw new IllegalStateException("this file system reports no link counts (unix:nlink), which the "
              + "checkpoint figures need", e);
        }
      }
    }
    return out;
  }

  private static List<Path> regularFiles(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      return paths.filter(Files::isRegularFile).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("listing " + dir, e);
    }
  }

  private static long size(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      throw new UncheckedIOException("reading the size of " + p, e);
    }
  }
}

package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.CorruptionException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Damages files of a closed database at chosen places, and checks how damage is reported. */
final class DamagedFiles {
  private DamagedFiles() {}

  /** Flips one bit; returns the original content for {@link #restore}. */
  static byte[] flipBit(Path file, long offset, int bit) throws IOException {
    byte[] original = Files.readAllBytes(file);
    byte[] damaged = original.clone();
    damaged[(int) offset] ^= (byte) (1 << bit);
    Files.write(file, damaged);
    return original;
  }

  static void truncate(Path file, long length) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(length);
    }
  }

  static void restore(Path file, byte[] original) throws IOException {
    Files.write(file, original);
  }

  /** The report names {@code file} and an offset inside it. */
  static void assertNamesFile(CorruptionException e, Path file) throws IOException {
    assertNamesFile(e, file, Files.size(file));
  }

  /** As above, for a file that was {@code size} bytes before it was truncated. */
  static void assertNamesFile(CorruptionException e, Path file, long size) {
    assertTrue(e.file().endsWith(file.getFileName().toString()), "the report names " + file.getFileName() + ": " + e);
    assertTrue(e.offset() >= 0 && e.offset() <= Math.max(size, 64), "offset inside the file: " + e);
    assertTrue(e.getMessage().contains(file.getFileName().toString()), e.getMessage());
  }

  static List<Path> endingWith(Path dir, String suffix) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
  }

  static List<Path> startingWith(Path dir, String prefix) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().startsWith(prefix)).sorted().toList();
    }
  }

  /**
   * Offsets of the fragments of a log or manifest that fits in one 32 KiB block, walked by their
   * lengths (docs/log_format.md: a 7-byte header, then {@code length} payload bytes).
   */
  static List<Long> fragmentOffsets(byte[] log) {
    List<Long> out = new ArrayList<>();
    int p = 0;
    while (p + 7 <= log.length && p + 7 <= (32 << 10)) {
      int length = (log[p + 4] & 0xff) | (log[p + 5] & 0xff) << 8;
      if (length == 0 && log[p + 6] == 0) {
        break;
      }
      out.add((long) p);
      p += 7 + length;
    }
    return out;
  }

  static long lastFragmentOffset(byte[] log) {
    List<Long> offsets = fragmentOffsets(log);
    return offsets.get(offsets.size() - 1);
  }

  static long secondToLastFragmentOffset(byte[] log) {
    List<Long> offsets = fragmentOffsets(log);
    return offsets.get(offsets.size() - 2);
  }
}

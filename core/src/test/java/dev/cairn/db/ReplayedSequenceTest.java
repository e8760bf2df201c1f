package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.Cairn;
import dev.cairn.CorruptionException;
import dev.cairn.Options;
import dev.cairn.WriteOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recovery refuses a log record whose sequences do not follow the previous record's. Found by
 * fuzzing ({@code LogFuzzTest#wal}): a duplicated record, checksum intact, was inserted again under
 * the same sequence numbers, which replaces memtable entries (and trips an assertion).
 */
class ReplayedSequenceTest {
  @TempDir Path dir;

  @Test
  void aDuplicatedLogRecordIsCorruptionNotAReplay() throws IOException {
    byte[] key = "k".getBytes(StandardCharsets.UTF_8);
    try (Cairn db = Cairn.open(dir, Options.defaults())) {
      db.put(key, "v".getBytes(StandardCharsets.UTF_8), WriteOptions.SYNC);
    }
    Path log = newestLog();
    byte[] once = Files.readAllBytes(log);
    byte[] twice = new byte[once.length * 2];
    System.arraycopy(once, 0, twice, 0, once.length);
    System.arraycopy(once, 0, twice, once.length, once.length);
    Files.write(log, twice);

    CorruptionException e = assertThrows(CorruptionException.class, () -> Cairn.open(dir, Options.defaults()));
    assertEquals(log.getFileName().toString(), e.file());
    assertEquals(once.length, e.offset(), "the duplicate starts where the original ends");

    Files.write(log, once);
    try (Cairn db = Cairn.open(dir, Options.defaults())) {
      assertArrayEquals("v".getBytes(StandardCharsets.UTF_8), db.get(key), "the intact log still recovers");
    }
  }

  private Path newestLog() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".log")).max(Path::compareTo).orElseThrow();
    }
  }
}

package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CorruptionException;
import dev.cairn.Options;
import dev.cairn.Options.WalRecoveryMode;
import dev.cairn.WriteOptions;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.fs.ReadableFile;
import dev.cairn.fs.fake.FaultInjectingFileSystem;
import dev.cairn.wal.WalReplay;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An older log that lost records, with a later log holding writes made after them, is damage:
 * replaying the later log would give a state that is no point in time (later synced writes
 * without the earlier ones). A log cut at a record's start reads as a clean end, so only the
 * sequences tell: each record starts right after the previous one, across logs.
 */
class LogSequenceGapTest {
  private static final int WRITES = 100;
  private static final byte[] VALUE = new byte[1024];

  @TempDir Path dir;

  @Test
  void anOlderLogCutAtARecordIsRefusedByDefaultAndEndsThePointInTime() throws Exception {
    List<Path> logs = writeTwoLogs();
    Path older = logs.get(0);
    List<Long> starts = recordStarts(older);
    int kept = starts.size() - 1;
    truncate(older, starts.get(kept)); // its last record gone, at a record boundary

    CorruptionException e = assertThrows(CorruptionException.class, () -> Cairn.open(dir, Options.defaults()));
    assertEquals(logs.get(1).getFileName().toString(), e.file(), "the record after the missing writes is named");
    assertEquals(0, e.offset(), "the newer log's first record follows the lost one");
    assertTrue(e.getMessage().contains("missing"), e.getMessage());

    try (Cairn db = Cairn.open(dir, Options.builder().walRecoveryMode(WalRecoveryMode.POINT_IN_TIME).build())) {
      for (int i = 0; i < WRITES; i++) {
        byte[] got = db.get(key(i));
        if (i < kept) {
          assertArrayEquals(VALUE, got, "write " + i + ", before the lost one, recovers");
        } else {
          assertNull(got, "write " + i + " is at or after the lost one: not part of the point in time");
        }
      }
    }
  }

  @Test
  void anOlderLogCutToNothingIsRefusedByDefault() throws Exception {
    List<Path> logs = writeTwoLogs();
    truncate(logs.get(0), 0); // no record left to compare with: the manifest's sequence is

    CorruptionException e = assertThrows(CorruptionException.class, () -> Cairn.open(dir, Options.defaults()));
    assertEquals(logs.get(1).getFileName().toString(), e.file());
    assertTrue(e.getMessage().contains("the manifest's last sequence"), e.getMessage());
  }

  @Test
  void aMissingOldestLogIsRefusedNamingTheManifest() throws Exception {
    List<Path> logs = writeTwoLogs();
    Files.delete(logs.get(0));

    CorruptionException e = assertThrows(CorruptionException.class, () -> Cairn.open(dir, Options.defaults()));
    assertTrue(e.file().startsWith("MANIFEST-"), e.file());
    assertTrue(e.getMessage().contains(logs.get(0).getFileName() + " as the oldest log"), e.getMessage());
  }

  @Test
  void skipAnyCorruptedReplaysTheLaterLogAnyway() throws Exception {
    List<Path> logs = writeTwoLogs();
    List<Long> starts = recordStarts(logs.get(0));
    truncate(logs.get(0), starts.get(starts.size() - 1));

    try (Cairn db = Cairn.open(dir, Options.builder().walRecoveryMode(WalRecoveryMode.SKIP_ANY_CORRUPTED).build())) {
      assertNull(db.get(key(starts.size() - 1)), "the cut record is gone");
      assertArrayEquals(VALUE, db.get(key(WRITES - 1)), "the newer log's writes are replayed");
    }
  }

  @Test
  void intactLogsRecoverEveryWrite() throws Exception {
    writeTwoLogs();
    try (Cairn db = Cairn.open(dir, Options.defaults())) {
      for (int i = 0; i < WRITES; i++) {
        assertArrayEquals(VALUE, db.get(key(i)), "write " + i);
      }
    }
  }

  /**
   * {@value #WRITES} synced writes of 1 KiB into 64 KiB memtables, their flushes held so that both
   * logs stay; then the machine stops (every write was synced, so the files are whole). Returns the
   * logs, oldest first.
   */
  private List<Path> writeTwoLogs() throws Exception {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem();
    Options options = Options.builder().fileSystem(fs).memtableBytes(64 << 10).build();
    Cairn db = Cairn.open(dir, options);
    fs.holdCreates(name -> name.endsWith(".sst"));
    for (int i = 0; i < WRITES; i++) {
      db.put(key(i), VALUE, WriteOptions.SYNC);
    }
    fs.simulatePowerLoss();
    fs.releaseCreates();
    db.close();
    fs.powerOn();
    List<Path> logs;
    try (Stream<Path> files = Files.list(dir)) {
      logs = files.filter(p -> p.getFileName().toString().endsWith(".log")).sorted().toList();
    }
    assertEquals(2, logs.size(), "one memtable switch: " + logs);
    return logs;
  }

  private static List<Long> recordStarts(Path log) throws IOException {
    List<Long> starts = new ArrayList<>();
    try (ReadableFile file = new LocalFileSystem().openReadable(log)) {
      WalReplay.replay(file, log.getFileName().toString(), WalRecoveryMode.ABSOLUTE_CONSISTENCY,
          (record, offset) -> starts.add(offset));
    }
    assertTrue(starts.size() > 1, "the older log holds several records: " + starts);
    return starts;
  }

  private static void truncate(Path file, long length) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.truncate(length);
    }
  }

  private static byte[] key(int i) {
    return String.format("k%05d", i).getBytes(StandardCharsets.UTF_8);
  }
}

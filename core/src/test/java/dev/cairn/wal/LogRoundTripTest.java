package dev.cairn.wal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.fs.IoPurpose;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.fs.ReadableFile;
import dev.cairn.fs.WritableFile;
import dev.cairn.testkit.Seeds;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogRoundTripTest {
  static final int BLOCK = LogFormat.BLOCK_BYTES;
  static final int HEADER = LogFormat.HEADER_BYTES;

  /** Writes the records; returns the log's bytes and, in {@code offsets}, each record's offset. */
  static byte[] write(List<byte[]> records, List<Long> offsets) throws IOException {
    MemoryFiles.Writable file = new MemoryFiles.Writable();
    try (LogWriter writer = new LogWriter(file)) {
      for (byte[] r : records) {
        long before = writer.size();
        // A record starts after the trailer when fewer than a header's bytes are left.
        int leftInBlock = (int) (BLOCK - before % BLOCK);
        offsets.add(leftInBlock < HEADER ? before + leftInBlock : before);
        writer.addRecord(r);
      }
    }
    return file.bytes();
  }

  static List<byte[]> readAll(byte[] log, List<String> reports) throws IOException {
    LogReader reader = new LogReader(new MemoryFiles.Readable(log), "test.log",
        (offset, bytes, reason, atTail) -> reports.add(offset + "+" + bytes + " " + reason + " tail=" + atTail));
    List<byte[]> out = new ArrayList<>();
    byte[] r;
    while ((r = reader.readRecord()) != null) {
      out.add(r);
    }
    assertNull(reader.readRecord(), "end of log is sticky");
    return out;
  }

  static byte[] record(Random random, int size) {
    byte[] b = new byte[size];
    random.nextBytes(b);
    return b;
  }

  private static void assertRoundTrip(List<byte[]> records) throws IOException {
    List<Long> offsets = new ArrayList<>();
    byte[] log = write(records, offsets);
    LogReader reader = new LogReader(new MemoryFiles.Readable(log), "test.log",
        (offset, bytes, reason, atTail) -> {
          throw new AssertionError("unexpected damage at " + offset + ": " + reason);
        });
    for (int i = 0; i < records.size(); i++) {
      byte[] r = reader.readRecord();
      assertArrayEquals(records.get(i), r, "record " + i);
      assertEquals(offsets.get(i), reader.lastRecordOffset(), "offset of record " + i);
    }
    assertNull(reader.readRecord());
    assertEquals(log.length, reader.lastRecordEnd());
  }

  @Test
  void edgeSizesRoundTrip() throws IOException {
    Random random = new Random(1);
    List<byte[]> records = new ArrayList<>();
    records.add(new byte[0]);
    records.add(new byte[] {42});
    assertRoundTrip(records);
    // One record that exactly fills a block, then more.
    assertRoundTrip(List.of(record(random, BLOCK - HEADER), record(random, 1), new byte[0]));
    // Leave exactly a header's room (an empty FIRST fragment), then 6 bytes (a zero trailer).
    assertRoundTrip(List.of(record(random, BLOCK - 2 * HEADER), record(random, 100)));
    assertRoundTrip(List.of(record(random, BLOCK - 2 * HEADER), new byte[0], record(random, 5)));
    assertRoundTrip(List.of(record(random, BLOCK - 2 * HEADER + 1), record(random, 100)));
    assertRoundTrip(List.of(record(random, BLOCK - HEADER - 1), record(random, 3)));
    // Spanning many blocks: FIRST, MIDDLEs, LAST.
    assertRoundTrip(List.of(record(random, 5 * BLOCK + 123), record(random, 10), record(random, 3 * BLOCK)));
  }

  @Test
  void emptyLogHasNoRecords() throws IOException {
    List<String> reports = new ArrayList<>();
    assertTrue(readAll(new byte[0], reports).isEmpty());
    assertTrue(reports.isEmpty());
  }

  @Test
  void randomizedRoundTrip() throws IOException {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    try {
      for (int round = 0; round < 20; round++) {
        List<byte[]> records = new ArrayList<>();
        int n = 1 + random.nextInt(200);
        for (int i = 0; i < n; i++) {
          int size = switch (random.nextInt(4)) {
            case 0 -> random.nextInt(10);
            case 1 -> random.nextInt(1000);
            case 2 -> random.nextInt(BLOCK * 3);
            default -> BLOCK - HEADER - random.nextInt(16);
          };
          records.add(record(random, size));
        }
        assertRoundTrip(records);
      }
    } catch (AssertionError | IOException e) {
      throw new AssertionError("failed with -Dcairn.seed=" + seed, e);
    }
  }

  @Test
  void writerContinuesAnExistingLog(@TempDir Path dir) throws IOException {
    LocalFileSystem fs = new LocalFileSystem();
    Path path = dir.resolve("000001.log");
    Random random = new Random(7);
    List<byte[]> records = new ArrayList<>();
    try (LogWriter writer = new LogWriter(fs.create(path, IoTag.WAL))) {
      for (int i = 0; i < 3; i++) {
        records.add(record(random, BLOCK / 2 - 5));
        writer.addRecord(records.get(records.size() - 1));
      }
      writer.sync();
    }
    long length = fs.size(path);
    WritableFile appendable = fs.openForAppend(path, length, IoTag.WAL);
    try (LogWriter writer = new LogWriter(appendable, length)) {
      for (int i = 0; i < 3; i++) {
        records.add(record(random, BLOCK / 3));
        writer.addRecord(records.get(records.size() - 1));
      }
      writer.flush();
      assertEquals(fs.size(path), writer.size());
    }
    List<byte[]> read = new ArrayList<>();
    try (ReadableFile file = fs.openReadable(path)) {
      WalReplay.ReplayResult result = WalReplay.replay(file, path.toString(),
          dev.cairn.Options.WalRecoveryMode.ABSOLUTE_CONSISTENCY, (r, offset) -> read.add(r));
      assertEquals(6, result.records());
      assertEquals(-1, result.firstCorruptionOffset());
    }
    for (int i = 0; i < records.size(); i++) {
      assertArrayEquals(records.get(i), read.get(i));
    }
    assertTrue(fs.ioStats().bytesRead(IoPurpose.WAL) >= fs.size(path), "reads are counted as WAL");
  }

  @Test
  void manifestTagCountsReadsAsManifest(@TempDir Path dir) throws IOException {
    LocalFileSystem fs = new LocalFileSystem();
    Path path = dir.resolve("MANIFEST-000001");
    try (LogWriter writer = new LogWriter(fs.create(path, IoTag.MANIFEST))) {
      writer.addRecord(new byte[100]);
    }
    try (ReadableFile file = fs.openReadable(path)) {
      LogReader reader = new LogReader(file, path.toString(), null, IoTag.MANIFEST);
      assertEquals(100, reader.readRecord().length);
    }
    assertEquals(0, fs.ioStats().bytesRead(IoPurpose.WAL));
    assertEquals(fs.size(path), fs.ioStats().bytesRead(IoPurpose.MANIFEST));
  }
}

package dev.cairn.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output files sync every {@code bytesPerSync} bytes, each sync making what was appended so far
 * durable; the WAL and the manifest are left alone.
 */
class IncrementalSyncFileTest {
  /** Records, per file, its length on disk at each sync: what that sync made durable. */
  private static final class SyncLog extends ForwardingFileSystem {
    final Map<String, List<Long>> lengthsAtSync = new ConcurrentHashMap<>();

    @Override
    protected WritableFile wrap(Path path, WritableFile file) {
      List<Long> lengths = lengthsAtSync.computeIfAbsent(path.getFileName().toString(), n -> new ArrayList<>());
      return new ForwardingWritableFile(file) {
        @Override
        public void sync() throws IOException {
          super.sync();
          lengths.add(Files.size(path));
        }
      };
    }
  }

  @Test
  void syncsEachTimeTheThresholdIsPassed(@TempDir Path dir) throws IOException {
    SyncLog log = new SyncLog();
    FileSystem fs = IncrementalSyncFile.syncingOutputs(log, 64 << 10);
    try (WritableFile file = fs.create(dir.resolve("000007.sst"), IoTag.FLUSH)) {
      byte[] chunk = new byte[30 << 10];
      for (int i = 0; i < 10; i++) {
        file.append(chunk);
      }
      List<Long> lengths = log.lengthsAtSync.get("000007.sst");
      // 300 KiB in 30 KiB appends: the 3rd, 6th and 9th append pass another 64 KiB since a sync.
      assertEquals(List.of(90L << 10, 180L << 10, 270L << 10), lengths);
      file.sync(); // the writer's own final sync restarts the count
      file.append(new byte[40 << 10]);
      assertEquals(4, lengths.size());
      file.append(java.nio.ByteBuffer.wrap(new byte[30 << 10]));
      assertEquals(List.of(90L << 10, 180L << 10, 270L << 10, 300L << 10, 370L << 10), lengths);
    }
  }

  @Test
  void onlyOutputsAreSyncedAsTheyGrowAndAppendsCount(@TempDir Path dir) throws IOException {
    SyncLog log = new SyncLog();
    FileSystem fs = IncrementalSyncFile.syncingOutputs(log, 64 << 10);
    try (WritableFile wal = fs.create(dir.resolve("000003.log"), IoTag.WAL);
        WritableFile compaction = fs.create(dir.resolve("000009.sst"), new IoTag(IoPurpose.COMPACTION, 2))) {
      wal.append(new byte[200 << 10]);
      compaction.append(new byte[70 << 10]);
    }
    assertEquals(List.of(), log.lengthsAtSync.get("000003.log"), "the WAL syncs when the user asks");
    assertEquals(List.of(70L << 10), log.lengthsAtSync.get("000009.sst"));
    try (WritableFile appended = fs.openForAppend(dir.resolve("000009.sst"), 70 << 10, IoTag.FLUSH)) {
      appended.append(new byte[64 << 10]); // block compaction's appends: counted from the reopen
    }
    assertEquals(List.of(70L << 10, 134L << 10), log.lengthsAtSync.get("000009.sst"));
  }

  @Test
  void zeroIsOffAndANegativeThresholdIsRefused() {
    FileSystem plain = new LocalFileSystem();
    assertSame(plain, IncrementalSyncFile.syncingOutputs(plain, 0));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> IncrementalSyncFile.syncingOutputs(plain, -1));
    assertEquals("bytesPerSync must be 0 (off) or positive, got -1", e.getMessage());
  }
}

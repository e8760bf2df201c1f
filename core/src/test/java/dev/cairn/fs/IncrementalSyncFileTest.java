package dev.cairn.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Syncs every {@code bytesPerSync} bytes, each one making what was appended so far durable. */
class IncrementalSyncFileTest {
  /** The file's length on disk at each sync: what that sync made durable. */
  private static final class SyncLog extends ForwardingFileSystem.ForwardingWritableFile {
    final List<Long> lengthsAtSync = new ArrayList<>();
    private final Path path;

    SyncLog(WritableFile delegate, Path path) {
      super(delegate);
      this.path = path;
    }

    @Override
    public void sync() throws IOException {
      super.sync();
      lengthsAtSync.add(Files.size(path));
    }
  }

  @Test
  void syncsEachTimeTheThresholdIsPassed(@TempDir Path dir) throws IOException {
    Path path = dir.resolve("000007.sst");
    SyncLog log = new SyncLog(new LocalFileSystem().create(path, IoTag.FLUSH), path);
    try (WritableFile file = IncrementalSyncFile.wrap(log, 64 << 10)) {
      byte[] chunk = new byte[30 << 10];
      for (int i = 0; i < 10; i++) {
        file.append(chunk);
      }
      // 300 KiB in 30 KiB appends: the 3rd, 6th and 9th append pass another 64 KiB since a sync.
      assertEquals(List.of(90L << 10, 180L << 10, 270L << 10), log.lengthsAtSync);
      file.sync(); // the writer's own final sync restarts the count
      file.append(new byte[40 << 10]);
      assertEquals(4, log.lengthsAtSync.size());
      file.append(java.nio.ByteBuffer.wrap(new byte[30 << 10]));
      assertEquals(List.of(90L << 10, 180L << 10, 270L << 10, 300L << 10, 370L << 10), log.lengthsAtSync);
    }
  }

  @Test
  void zeroIsOffAndANegativeThresholdIsRefused(@TempDir Path dir) throws IOException {
    try (WritableFile plain = new LocalFileSystem().create(dir.resolve("x"), IoTag.FLUSH)) {
      assertSame(plain, IncrementalSyncFile.wrap(plain, 0));
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> IncrementalSyncFile.wrap(plain, -1));
      assertEquals("bytesPerSync must be 0 (off) or positive, got -1", e.getMessage());
    }
  }
}

package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.fs.ForwardingFileSystem;
import dev.cairn.fs.WritableFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flush or compaction syncs the manifest without the engine mutex (issue 20): while a manifest
 * sync is held up, as on a device whose fsync takes long, writes and reads go on, and the edit
 * is installed once the sync returns.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SlowManifestSyncTest {
  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A filesystem whose manifest syncs wait, while {@link #hold} is on, until released one by one. */
  static final class HeldManifestSyncs extends ForwardingFileSystem {
    volatile boolean hold;
    final Semaphore syncsWaiting = new Semaphore(0);
    final CountDownLatch release = new CountDownLatch(1);

    @Override
    protected WritableFile wrap(Path path, WritableFile file) {
      if (!path.getFileName().toString().startsWith("MANIFEST-")) {
        return file;
      }
      return new ForwardingWritableFile(file) {
        @Override
        public void sync() throws IOException {
          if (hold) {
            syncsWaiting.release();
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new IOException("interrupted while the test held the sync", e);
            }
          }
          super.sync();
        }
      };
    }
  }

  @Test
  void writesAndReadsGoOnWhileAFlushSyncsTheManifest() throws Exception {
    HeldManifestSyncs fs = new HeldManifestSyncs();
    Options options = Options.builder().fileSystem(fs).build();
    ExecutorService threads = Executors.newCachedThreadPool();
    try (Cairn db = Cairn.open(dir, options)) {
      db.put(b("before"), b("1"));
      DbImpl impl = (DbImpl) db;
      int levelZeroBefore = impl.engine().versions().current().files(0).size();
      fs.hold = true;
      Future<?> flush = threads.submit(db::flush); // its edit's sync waits for the test
      try {
        assertTrue(fs.syncsWaiting.tryAcquire(30, TimeUnit.SECONDS), "the flush reached its manifest sync");
        // The sync is held: a write and reads of the memtables and the version still complete.
        Future<byte[]> meanwhile = threads.submit(() -> {
          db.put(b("during"), b("2"));
          assertArrayEquals(b("1"), db.get(b("before")), "the flushing memtable still answers");
          return db.get(b("during"));
        });
        try {
          assertArrayEquals(b("2"), meanwhile.get(10, TimeUnit.SECONDS));
        } catch (TimeoutException e) {
          fail("a write and reads waited 10 s for a flush's manifest sync");
        }
        assertFalse(flush.isDone(), "the flush waits for its edit");
        assertEquals(levelZeroBefore, impl.engine().versions().current().files(0).size(),
            "the edit is not installed before its record is synced");
      } finally {
        fs.release.countDown(); // before close, which would wait for the held flush
      }
      flush.get(30, TimeUnit.SECONDS);
      assertEquals(levelZeroBefore + 1, impl.engine().versions().current().files(0).size(), "the flush's table is installed");
      assertArrayEquals(b("1"), db.get(b("before")));
      assertArrayEquals(b("2"), db.get(b("during")));
    } finally {
      threads.shutdownNow();
    }
    fs.hold = false;
    try (Cairn db = Cairn.open(dir, Options.builder().fileSystem(fs).build())) {
      assertArrayEquals(b("1"), db.get(b("before")), "the flushed table survives a reopen");
      assertArrayEquals(b("2"), db.get(b("during")), "the write made during the sync survives a reopen");
    }
  }
}

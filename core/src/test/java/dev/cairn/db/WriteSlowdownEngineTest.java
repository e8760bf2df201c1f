package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.fs.ForwardingFileSystem;
import dev.cairn.fs.IoPurpose;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.WritableFile;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * With L0 between its slowdown and stop triggers, writes are paced, not put to sleep one by one
 * (LevelDB slept a millisecond per write group, issue 20): with compactions held, flushes pile up
 * L0 files past the slowdown trigger, and most write groups then pass without sleeping, none
 * stops, and every write is there.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class WriteSlowdownEngineTest {
  @TempDir Path dir;

  /** Holds the creation of compaction outputs until released: L0 only grows. */
  static final class HeldCompactions extends ForwardingFileSystem {
    final CountDownLatch release = new CountDownLatch(1);

    @Override
    public WritableFile create(Path path, IoTag tag) throws IOException {
      if (tag.purpose() == IoPurpose.COMPACTION) {
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("held compaction output");
        }
      }
      return super.create(path, tag);
    }
  }

  /** Keys spread over the key space, so that L0 files overlap and cannot move down trivially. */
  private static byte[] key(int i) {
    return String.format("k%08d-%d", Integer.reverse(i) >>> 1, i).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void writesArePacedNotSleptOneByOne() {
    HeldCompactions fs = new HeldCompactions();
    Options options = Options.builder().fileSystem(fs).memtableBytes(64 << 10)
        .l0CompactionTrigger(2).l0SlowdownTrigger(3).l0StopTrigger(60).build();
    byte[] value = new byte[1000];
    try (Cairn db = Cairn.open(dir, options)) {
      try {
        int i = 0;
        while (db.stats().levels().get(0).files() < 3) {
          db.put(key(i++), value);
        }
        Stats before = db.stats();
        int paced = 2000; // 2 MB at the default 16 MiB/s: ~120 ms of pace, ~120 sleeps of ~1 ms
        for (int n = 0; n < paced; n++) {
          db.put(key(i++), value);
        }
        Stats after = db.stats();
        long slowdowns = after.stalls().slowdowns() - before.stalls().slowdowns();
        assertTrue(slowdowns > 0, "the writes were paced: " + after);
        assertTrue(slowdowns < paced / 4, slowdowns + " of " + paced + " write groups slept: not paced but slept one by one");
        assertEquals(before.stalls().l0Stops(), after.stalls().l0Stops(), "no write stopped for L0 below its stop trigger");
        assertTrue(after.levels().get(0).files() < options.l0StopTrigger(), "L0 stayed below the stop trigger");
        for (int k = 0; k < i; k += 97) {
          assertArrayEquals(value, db.get(key(k)));
        }
      } finally {
        fs.release.countDown(); // before close, which waits for the held compaction
      }
    }
  }
}

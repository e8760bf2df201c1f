package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.Options;
import dev.cairn.Snapshot;
import dev.cairn.WriteBatch;
import dev.cairn.testing.EngineCombo;
import dev.cairn.testing.EngineCombo.CompactionScheduler;
import dev.cairn.testing.EngineCombo.CompactionStyle;
import dev.cairn.testkit.LongTests;
import dev.cairn.testkit.Seeds;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several writers, readers, snapshot holders and iterators at once, with background flushes and
 * compactions running constantly. Each key's value carries a version that only grows, so every
 * reader can check what it sees: a version never goes backwards for a reader, a snapshot's view
 * never changes, iterators return keys in order, and at the end every key holds its last version.
 */
class ConcurrencyTest {
  private static final int KEYS_PER_WRITER = 400;
  private static final int WRITERS = 3;

  @TempDir Path dir;

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void writersReadersSnapshotsAndIteratorsAgree() throws Exception {
    run(ModelTest.smallOptions());
  }

  /** The same with the LSbM compaction buffer: appends, markers and trims under concurrent reads. */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void writersReadersSnapshotsAndIteratorsAgreeWithTheCompactionBuffer() throws Exception {
    run(ModelTest.options(EngineCombo.of(CompactionStyle.BUFFER, CompactionScheduler.IMMEDIATE)));
  }

  private void run(Options options) throws Exception {
    long seed = Seeds.seed();
    int rounds = LongTests.enabled() ? 200 : 30;
    AtomicLongArray lastWritten = new AtomicLongArray(WRITERS * KEYS_PER_WRITER);
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    AtomicBoolean writersDone = new AtomicBoolean();
    try (Cairn db = Cairn.open(dir, options)) {
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        threads.add(thread("writer-" + w, failures, () -> {
          SplittableRandom rnd = new SplittableRandom(seed + writer);
          for (int round = 1; round <= rounds; round++) {
            for (int i = 0; i < KEYS_PER_WRITER; i++) {
              int k = writer * KEYS_PER_WRITER + i;
              if (rnd.nextInt(10) == 0) {
                WriteBatch b = new WriteBatch();
                b.put(key(k), value(k, round, rnd.nextInt(300)));
                db.write(b);
              } else {
                db.put(key(k), value(k, round, rnd.nextInt(300)));
              }
              lastWritten.set(k, round);
            }
          }
        }));
      }
      for (int r = 0; r < 2; r++) {
        int reader = r;
        threads.add(thread("reader-" + r, failures, () -> {
          SplittableRandom rnd = new SplittableRandom(seed * 31 + reader);
          long[] seen = new long[WRITERS * KEYS_PER_WRITER];
          while (!writersDone.get()) {
            int k = rnd.nextInt(seen.length);
            long floor = lastWritten.get(k);
            byte[] v = db.get(key(k));
            if (v != null) {
              long version = versionOf(k, v, seed);
              assertTrue(version >= seen[k], "key " + k + " went back from " + seen[k] + " to " + version + ", seed " + seed);
              assertTrue(version >= floor, "key " + k + " is older (" + version + ") than acknowledged " + floor + ", seed " + seed);
              seen[k] = version;
            } else {
              assertEquals(0, floor, "key " + k + " missing after being acknowledged, seed " + seed);
            }
          }
        }));
      }
      threads.add(thread("maintenance", failures, () -> {
        // flush() and compactRange() take turns in the writer queue and claim compaction files:
        // running them beside the writers guards against deadlocks between the two paths.
        int i = 0;
        while (!writersDone.get()) {
          if (i++ % 3 == 0) {
            db.compactRange(key(i % 500), key(i % 500 + 100));
          } else {
            db.flush();
          }
        }
      }));
      threads.add(thread("snapshots", failures, () -> {
        while (!writersDone.get()) {
          try (Snapshot s = db.snapshot()) {
            byte[][] first = new byte[50][];
            for (int k = 0; k < 50; k++) {
              first[k] = s.get(key(k));
            }
            try (CairnIterator it = s.iterator()) {
              byte[] previous = null;
              int n = 0;
              for (it.seekToFirst(); it.isValid(); it.next()) {
                if (previous != null) {
                  assertTrue(Arrays.compareUnsigned(previous, it.key()) < 0, "iterator out of order, seed " + seed);
                }
                previous = it.key();
                n++;
              }
              assertTrue(n <= WRITERS * KEYS_PER_WRITER, "iterator returned " + n + " keys");
            }
            for (int k = 0; k < 50; k++) {
              assertTrue(Arrays.equals(first[k], s.get(key(k))), "snapshot view of key " + k + " changed, seed " + seed);
            }
          }
        }
      }));
      threads.forEach(Thread::start);
      for (int w = 0; w < WRITERS; w++) {
        threads.get(w).join();
      }
      writersDone.set(true);
      for (Thread t : threads) {
        t.join();
      }
      if (!failures.isEmpty()) {
        AssertionError e = new AssertionError("concurrent failure, seed " + seed, failures.peek());
        failures.stream().skip(1).forEach(e::addSuppressed);
        throw e;
      }
      for (int k = 0; k < lastWritten.length(); k++) {
        byte[] v = db.get(key(k));
        assertNotNull(v, "key " + k + " lost, seed " + seed);
        assertEquals(rounds, versionOf(k, v, seed), "key " + k + " final version, seed " + seed);
      }
      assertTrue(db.stats().compaction().completed() > 0, "compactions must have run during the test");
    }
  }

  static Thread thread(String name, ConcurrentLinkedQueue<Throwable> failures, Runnable body) {
    return new Thread(() -> {
      try {
        body.run();
      } catch (Throwable t) {
        failures.add(t);
      }
    }, name);
  }

  static byte[] key(int k) {
    return String.format("key-%06d", k).getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] value(int k, long version, int padding) {
    ByteBuffer b = ByteBuffer.allocate(12 + padding);
    b.putInt(k).putLong(version);
    return b.array();
  }

  static long versionOf(int k, byte[] v, long seed) {
    ByteBuffer b = ByteBuffer.wrap(v);
    assertEquals(k, b.getInt(), "value of key " + k + " belongs to another key, seed " + seed);
    return b.getLong();
  }
}

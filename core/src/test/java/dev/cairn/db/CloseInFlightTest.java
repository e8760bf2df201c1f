package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.DatabaseClosedException;
import dev.cairn.Options;
import dev.cairn.Snapshot;
import dev.cairn.WriteBatch;
import dev.cairn.WriteOptions;
import dev.cairn.testing.EngineCombo;
import dev.cairn.testing.EngineCombo.CompactionScheduler;
import dev.cairn.testing.EngineCombo.CompactionStyle;
import dev.cairn.testkit.LongTests;
import dev.cairn.testkit.Seeds;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Closes the database while writers are mid-write, iterators and snapshots are open, and flushes
 * and compactions run. {@code close()} must return; every call in flight must either complete or
 * end with {@link DatabaseClosedException} (nothing else: no I/O error from a log closed under a
 * writer, no background error, no use of released memory); no thread may hang; and a reopen must
 * find every write that was acknowledged before or during the close.
 *
 * <p>Each writer owns its keys and writes each key's version 1, 2, 3, ... in order, so "the
 * reopened value's version is at least the last acknowledged one" is exact. Several rounds close at
 * different moments, under each compaction style and scheduler ({@link EngineCombo}); the seed
 * and the combination are printed on failure.
 */
class CloseInFlightTest {
  private static final int WRITERS = 4;
  private static final int KEYS_PER_WRITER = 200;

  @TempDir Path dir;

  /**
   * CI rotation: every style and scheduler once; {@code -Dcairn.long=true} runs the
   * cross-product. Under DLC the iterators and snapshot reads make the load high, so the close
   * meets held-back L0 compactions and bursty ones; under BUFFER it meets 10 ms trims.
   */
  static List<EngineCombo> combos() {
    return EngineCombo.select(
        EngineCombo.of(CompactionStyle.TABLE, CompactionScheduler.IMMEDIATE),
        EngineCombo.of(CompactionStyle.BLOCK, CompactionScheduler.DLC),
        EngineCombo.of(CompactionStyle.BUFFER, CompactionScheduler.IMMEDIATE),
        EngineCombo.twoPhase());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void closeWithWorkInFlightLosesNoAcknowledgedWrite(EngineCombo combo) throws Exception {
    long seed = Seeds.seed();
    int rounds = LongTests.enabled() ? 40 : 4;
    Options options = combo.options(ModelTest.smallOptions());
    AtomicLongArray acknowledged = new AtomicLongArray(WRITERS * KEYS_PER_WRITER);
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int round = 0; round < rounds; round++) {
      closeDuringWork(options, seed + round, acknowledged, 200 + rnd.nextInt(3000));
      try (Cairn db = Cairn.open(dir, options)) {
        for (int k = 0; k < acknowledged.length(); k++) {
          long ack = acknowledged.get(k);
          if (ack == 0) {
            continue;
          }
          byte[] v = db.get(ConcurrencyTest.key(k));
          assertNotNull(v, "key " + k + " (acknowledged version " + ack + ") lost, round " + round + ", seed " + seed
              + ", " + combo);
          long version = ConcurrencyTest.versionOf(k, v, seed);
          assertTrue(version >= ack, "key " + k + " went back from acknowledged " + ack + " to " + version
              + " after a close in flight, round " + round + ", seed " + seed + ", " + combo);
        }
      }
    }
  }

  /** One open, a burst of work on every path, and a close once {@code writesBeforeClose} are acknowledged. */
  private void closeDuringWork(Options options, long seed, AtomicLongArray acknowledged, int writesBeforeClose)
      throws Exception {
    String where = "seed " + seed + ", " + options.compaction();
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    CountDownLatch enoughWritten = new CountDownLatch(writesBeforeClose);
    Cairn db = Cairn.open(dir, options);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      int writer = w;
      threads.add(untilClosed("writer-" + w, failures, () -> {
        SplittableRandom rnd = new SplittableRandom(seed * 31 + writer);
        while (true) {
          int k = writer * KEYS_PER_WRITER + rnd.nextInt(KEYS_PER_WRITER);
          long version = acknowledged.get(k) + 1; // only this writer writes key k
          byte[] value = ConcurrencyTest.value(k, version, rnd.nextInt(200));
          switch (rnd.nextInt(16)) {
            case 0 -> db.write(new WriteBatch().put(ConcurrencyTest.key(k), value));
            case 1 -> db.put(ConcurrencyTest.key(k), value, WriteOptions.SYNC);
            default -> db.put(ConcurrencyTest.key(k), value);
          }
          acknowledged.set(k, version);
          enoughWritten.countDown();
        }
      }));
    }
    for (int r = 0; r < 2; r++) {
      threads.add(untilClosed("iterator-" + r, failures, () -> {
        while (true) {
          try (CairnIterator it = db.iterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
              ConcurrencyTest.versionOf(keyNumber(it.key()), it.value(), seed);
            }
          }
        }
      }));
    }
    threads.add(untilClosed("snapshot", failures, () -> {
      SplittableRandom rnd = new SplittableRandom(seed * 17);
      while (true) {
        try (Snapshot s = db.snapshot()) {
          int k = rnd.nextInt(acknowledged.length());
          byte[] v = s.get(ConcurrencyTest.key(k));
          if (v != null) {
            ConcurrencyTest.versionOf(k, v, seed);
          }
        }
      }
    }));
    threads.add(untilClosed("maintenance", failures, () -> {
      int i = 0;
      while (true) {
        if (i++ % 2 == 0) {
          db.compactRange(ConcurrencyTest.key(i % 600), ConcurrencyTest.key(i % 600 + 200));
        } else {
          db.flush();
        }
      }
    }));
    threads.forEach(Thread::start);
    try {
      assertTrue(enoughWritten.await(1, TimeUnit.MINUTES), "writers made no progress, " + where);
    } finally {
      db.close();
    }
    for (Thread t : threads) {
      t.join(TimeUnit.SECONDS.toMillis(30));
      assertFalse(t.isAlive(), t.getName() + " still running 30 s after close, " + where);
    }
    if (!failures.isEmpty()) {
      AssertionError e = new AssertionError("a call in flight during close failed with something other than"
          + " DatabaseClosedException, " + where, failures.peek());
      failures.stream().skip(1).forEach(e::addSuppressed);
      throw e;
    }
  }

  /** The inverse of {@link ConcurrencyTest#key}. */
  private static int keyNumber(byte[] key) {
    return Integer.parseInt(new String(key, StandardCharsets.US_ASCII).substring("key-".length()));
  }

  /** A thread that runs {@code body} until it meets {@link DatabaseClosedException}. */
  private static Thread untilClosed(String name, ConcurrentLinkedQueue<Throwable> failures, Runnable body) {
    return new Thread(() -> {
      try {
        body.run();
      } catch (DatabaseClosedException expected) {
        // The only way a call may end because of close.
      } catch (Throwable t) {
        failures.add(t);
      }
    }, name);
  }
}

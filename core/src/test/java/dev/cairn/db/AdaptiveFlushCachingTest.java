package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.Stats;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Options.FlushCaching#ADAPTIVE} in the engine: flushes start out caching their blocks,
 * keep caching while reads follow the newest writes, and stop where reads spread over all the
 * data. Each round updates a batch of keys and flushes it, then reads; the choice is taken at the
 * next flush.
 */
class AdaptiveFlushCachingTest {
  private static final int KEYS = 40_000;
  private static final int BATCH = 2_000;
  private static final int ROUNDS = 4;

  @TempDir Path dir;

  @Test
  void readsOfTheNewestBatchTurnFlushCachingOnAndItsBlocksAreCached() {
    try (Cairn db = Cairn.open(dir, options())) {
      loadAndPushDown(db);
      SplittableRandom random = new SplittableRandom(1);
      for (int round = 0; round < ROUNDS; round++) {
        int first = round * BATCH;
        updateAndFlush(db, first, round);
        for (int n = 0; n < 4 * BATCH; n++) {
          int k = first + random.nextInt(BATCH);
          assertArrayEquals(value(k, round), db.get(key(k)));
        }
      }
      Stats.FlushCaching caching = db.stats().flush().caching();
      assertTrue(caching.now(), "reads of the newest batch only: " + caching);
      assertEquals(0, caching.switches(), "on from the start, and kept");
      assertTrue(caching.recency() > 3, "L0 answered far beyond its share: " + caching);

      // The next flush caches its blocks too: its batch's first reads all hit.
      int first = ROUNDS * BATCH;
      updateAndFlush(db, first, ROUNDS);
      long missesBefore = db.stats().cache().misses();
      for (int k = first; k < first + BATCH; k++) {
        assertArrayEquals(value(k, ROUNDS), db.get(key(k)));
      }
      assertEquals(missesBefore, db.stats().cache().misses(), "the flush had cached every block it wrote");
    }
  }

  @Test
  void readsSpreadOverEveryKeyLeaveFlushCachingOff() {
    try (Cairn db = Cairn.open(dir, options())) {
      loadAndPushDown(db);
      SplittableRandom random = new SplittableRandom(2);
      int[] round = new int[KEYS];
      for (int r = 0; r < ROUNDS + 1; r++) {
        updateAndFlush(db, r * BATCH, r + 1);
        for (int k = r * BATCH; k < (r + 1) * BATCH; k++) {
          round[k] = r + 1;
        }
        for (int n = 0; n < 4 * BATCH; n++) {
          int k = random.nextInt(KEYS);
          assertArrayEquals(value(k, round[k]), db.get(key(k)));
        }
      }
      Stats.FlushCaching caching = db.stats().flush().caching();
      assertFalse(caching.now(), "reads spread over the data: " + caching);
      assertEquals(1, caching.switches(), "on at the start, off at the first window");
      assertTrue(caching.recency() < 3, "L0 answered about its share: " + caching);
    }
  }

  @Test
  void cachingTurnedOffByScatteredReadsComesBackWhenReadsFollowTheWritesAgain() {
    try (Cairn db = Cairn.open(dir, options())) {
      loadAndPushDown(db);
      SplittableRandom random = new SplittableRandom(3);
      int[] round = new int[KEYS];
      for (int r = 0; r < 2 * ROUNDS; r++) {
        updateAndFlush(db, r * BATCH, r + 1);
        for (int k = r * BATCH; k < (r + 1) * BATCH; k++) {
          round[k] = r + 1;
        }
        boolean scattered = r < ROUNDS;
        for (int n = 0; n < 4 * BATCH; n++) {
          int k = scattered ? random.nextInt(KEYS) : r * BATCH + random.nextInt(BATCH);
          assertArrayEquals(value(k, round[k]), db.get(key(k)));
        }
        if (r == ROUNDS - 1) {
          assertFalse(db.stats().flush().caching().now(), "off after the scattered reads");
        }
      }
      Stats.FlushCaching caching = db.stats().flush().caching();
      assertTrue(caching.now(), "back on: " + caching);
      assertEquals(2, caching.switches(), "off, then on again: " + caching);
    }
  }

  /**
   * Tables flushed before any read are no news to the reads after them: the last table of a load
   * is not taken for new data that the reads pass over, and the first window is dropped.
   */
  @Test
  void theLastTableOfWritesAloneIsNoEvidence() {
    try (Cairn db = Cairn.open(dir, options())) {
      loadAndPushDown(db);
      updateAndFlush(db, 0, 1); // the load's last batch, still with no read
      SplittableRandom random = new SplittableRandom(4);
      int[] round = new int[KEYS];
      Arrays.fill(round, 0, BATCH, 1);
      for (int r = 0; r < 2; r++) {
        for (int n = 0; n < 4 * BATCH; n++) {
          int k = random.nextInt(KEYS);
          assertArrayEquals(value(k, round[k]), db.get(key(k)));
        }
        updateAndFlush(db, (r + 1) * BATCH, r + 2);
        Arrays.fill(round, (r + 1) * BATCH, (r + 2) * BATCH, r + 2);
        Stats.FlushCaching caching = db.stats().flush().caching();
        if (r == 0) {
          assertTrue(caching.now(), "no fresh table for the first reads: " + caching);
          assertEquals(0, caching.switches(), "the first window was dropped: " + caching);
        } else {
          assertFalse(caching.now(), "the first batch written among reads, passed over: " + caching);
          assertEquals(1, caching.switches(), caching.toString());
        }
      }
    }
  }

  /**
   * Reads between opening and the first flush are reads, not writes alone: the first table
   * flushed after them is fresh, and reads that follow it count.
   */
  @Test
  void readsBeforeTheFirstFlushAfterOpeningMakeItsTableFresh() {
    try (Cairn db = Cairn.open(dir, options())) {
      loadAndPushDown(db);
    }
    try (Cairn db = Cairn.open(dir, options())) {
      SplittableRandom random = new SplittableRandom(5);
      for (int n = 0; n < BATCH; n++) {
        int k = random.nextInt(KEYS);
        assertArrayEquals(value(k, 0), db.get(key(k)));
      }
      updateAndFlush(db, 0, 1);
      for (int n = 0; n < 4 * BATCH; n++) {
        int k = random.nextInt(BATCH);
        assertArrayEquals(value(k, 1), db.get(key(k)));
      }
      updateAndFlush(db, BATCH, 2);
      Stats.FlushCaching caching = db.stats().flush().caching();
      assertTrue(caching.now(), caching.toString());
      assertTrue(caching.recency() > 3, "the reads followed the first table flushed after opening: " + caching);
    }
  }

  private static Options options() {
    return Options.builder().memtableBytes(4 << 20).blockBytes(1024).blockCacheBytes(32 << 20)
        .l0CompactionTrigger(8).l0SlowdownTrigger(20).l0StopTrigger(24)
        .flushCaching(Options.FlushCaching.ADAPTIVE).build();
  }

  /** Every key at round 0, flushed and compacted below L0. */
  private static void loadAndPushDown(Cairn db) {
    for (int k = 0; k < KEYS; k++) {
      db.put(key(k), value(k, 0));
    }
    db.flush();
    db.compactRange(null, null);
  }

  private static void updateAndFlush(Cairn db, int first, int round) {
    for (int k = first; k < first + BATCH; k++) {
      db.put(key(k), value(k, round));
    }
    db.flush();
  }

  private static byte[] key(int i) {
    return String.format("k%06d", i).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] value(int i, int round) {
    return ("v" + i + "-" + round + "-" + "y".repeat(100)).getBytes(StandardCharsets.US_ASCII);
  }
}

package dev.cairn.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * The clock's window moving with what is asked for again ({@link ClockBlockTable}, "The window's
 * size"), on synthetic traces replayed against the table alone ({@link CacheTraces}): against a
 * fixed window of {@value ClockBlockTable#MIN_WINDOW_PERCENT}% and against LRU, by hit ratio.
 */
class ClockWindowTest {
  /** 16 MiB: 16 shards of 256 blocks. */
  private static final long CAPACITY = 16L << 20;
  private static final int BLOCKS = (int) (CAPACITY / CacheTraces.BLOCK);

  private static ClockBlockTable adaptive() {
    return new ClockBlockTable(CAPACITY, CacheTraces.releasing());
  }

  private static ClockBlockTable fixed() {
    return CacheTraces.fixedWindowClock(CAPACITY);
  }

  private static double hitRatio(BlockTable table, LongSupplier trace) {
    return CacheTraces.hitRatioOverRotations(table, trace, BLOCKS);
  }

  private static double windowShare(ClockBlockTable table) {
    return (double) table.windowCapacity() / CAPACITY;
  }

  /**
   * The Latest shape: the blocks read most are the newest, each read some twenty times in its
   * life. A fixed small window turns them away in favour of the counts older blocks earned; the
   * window that moves grows and holds them within a few points of LRU.
   */
  @Test
  void newBlocksReadMostGrowTheWindowToNearLrusHitRatio() {
    double fixed = hitRatio(fixed(), CacheTraces.latest(1, BLOCKS / 2, 20, 0.98));
    ClockBlockTable table = adaptive();
    double adaptive = hitRatio(table, CacheTraces.latest(1, BLOCKS / 2, 20, 0.98));
    double lru = hitRatio(new LruBlockTable(CAPACITY, CacheTraces.releasing()),
        CacheTraces.latest(1, BLOCKS / 2, 20, 0.98));
    assertTrue(adaptive > fixed + 0.15, "adaptive " + adaptive + ", fixed " + fixed);
    assertTrue(adaptive > lru - 0.05, "adaptive " + adaptive + ", LRU " + lru);
    assertTrue(windowShare(table) > 0.3, "window " + windowShare(table));
  }

  /**
   * A skewed, steady popularity with one-off scans through it: frequency is what pays, and the
   * window stays small enough to keep the fixed window's hit ratio and its lead over LRU.
   */
  @Test
  void aSteadySkewWithScansKeepsTheWindowSmall() {
    double fixed = hitRatio(fixed(), scannedZipfian());
    ClockBlockTable table = adaptive();
    double adaptive = hitRatio(table, scannedZipfian());
    double lru = hitRatio(new LruBlockTable(CAPACITY, CacheTraces.releasing()), scannedZipfian());
    assertTrue(adaptive > fixed - 0.01, "adaptive " + adaptive + ", fixed " + fixed);
    assertTrue(adaptive > lru + 0.02, "adaptive " + adaptive + ", LRU " + lru);
    assertTrue(windowShare(table) < 0.2, "window " + windowShare(table));
  }

  private static LongSupplier scannedZipfian() {
    return CacheTraces.scannedZipfian(BLOCKS);
  }

  /**
   * When the newest blocks stop being the ones read, the window gives the room back: over the
   * next phase's first hundred rotations it comes down to a few percent, and the phase's hit
   * ratio stays within 3 points of a fixed window's that never grew.
   */
  @Test
  void aWindowGrownForNewBlocksShrinksWhenFrequencyPaysAgain() {
    ClockBlockTable table = adaptive();
    hitRatio(table, CacheTraces.latest(1, BLOCKS / 2, 20, 0.98));
    double grown = windowShare(table);
    double afterwards = hitRatio(table, scannedZipfian());
    assertTrue(grown > 0.3, "window " + grown);
    assertTrue(windowShare(table) < 0.05, "window " + windowShare(table) + " after " + grown);
    double fixed = hitRatio(fixed(), scannedZipfian());
    assertTrue(afterwards > fixed - 0.03, "hit ratio " + afterwards + ", fixed " + fixed);
  }

  @Test
  void theWindowStartsAtItsLeastAndStaysWithinItsBounds() {
    ClockBlockTable table = adaptive();
    assertEquals(CAPACITY * ClockBlockTable.MIN_WINDOW_PERCENT / 100, table.windowCapacity(), BLOCKS);
    hitRatio(table, CacheTraces.latest(3, BLOCKS * 3 / 4, 50, 1.0));
    assertTrue(windowShare(table) <= ClockBlockTable.MAX_WINDOW_PERCENT / 100.0, "window " + windowShare(table));
  }

  @Test
  void boundsOutOfOrderAreRefused() {
    BlockTable.RemovalListener ignore = CacheTraces.releasing();
    assertThrows(IllegalArgumentException.class, () -> new ClockBlockTable(CAPACITY, 10, 5, ignore));
    assertThrows(IllegalArgumentException.class, () -> new ClockBlockTable(CAPACITY, -1, 5, ignore));
    assertThrows(IllegalArgumentException.class, () -> new ClockBlockTable(CAPACITY, 1, 101, ignore));
  }
}

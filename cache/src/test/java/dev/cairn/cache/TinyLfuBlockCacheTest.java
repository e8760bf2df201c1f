package dev.cairn.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The block cache contract under W-TinyLFU, and what is TinyLFU's own: admission by frequency. */
class TinyLfuBlockCacheTest extends BlockCacheContractTest {
  @Override
  EvictionPolicy policy() {
    return EvictionPolicy.TINY_LFU;
  }

  /**
   * W-TinyLFU turns newcomers away in favour of frequent blocks, so a block can leave long before
   * an LRU cache of the same size would drop it; the cache counts those ("evicted while warm"),
   * which is what a workload reading its newest data loses (docs/compaction.md, "Flushed blocks
   * in the cache"). Blocks a file deletion evicts are not counted.
   */
  @Test
  void evictionsOfBlocksAnLruCacheWouldStillHoldAreCounted() {
    int blocks = 64;
    OffHeapBlockCache cache = newCache((long) blocks * BLOCK);
    for (int i = 0; i < blocks; i++) { // a set filling the cache ...
      insertAndClose(cache, 1, (long) i * BLOCK, BLOCK);
    }
    for (int read = 0; read < 64; read++) { // ... made frequent (once full: Caffeine counts from half full)
      for (int i = 0; i < blocks; i++) {
        cache.lookup(1, (long) i * BLOCK).close();
      }
    }
    for (int i = 0; i < blocks / 4; i++) { // newcomers, a quarter of the capacity: LRU keeps them all
      insertAndClose(cache, 2, (long) i * BLOCK, BLOCK);
    }
    CacheStats stats = cache.stats();
    assertTrue(stats.evictions() >= blocks / 4, "the full cache evicted: " + stats);
    // TinyLFU turned the newcomers away (an LRU would have dropped the oldest frequent blocks,
    // inserted more than a capacity ago): every eviction was of a block younger than that.
    assertEquals(stats.evictions(), stats.evictedWarm(), "newcomers evicted while warm: " + stats);
    long warmBefore = stats.evictedWarm();
    cache.evictFile(1);
    assertEquals(warmBefore, cache.stats().evictedWarm(), "a file's deletion is no capacity eviction");
  }

  @Test
  void blocksHitOftenAreStillPreferredThoughHitsAreSampled() {
    // Caffeine hears of one hit in RECORDED_HIT_ONE_IN: the hits it hears must still raise a
    // block's frequency above that of blocks inserted and never read, so TinyLFU admits the
    // first over the second. Were no hit recorded, every newcomer would tie with its victim
    // (one insert each) and be turned away.
    int capacityBlocks = 100;
    OffHeapBlockCache cache = newCache((long) capacityBlocks * BLOCK);
    // Twice the capacity: Caffeine counts frequencies only once the cache is half full, and the
    // blocks inserted before that (a frequency of zero) must be gone before the test begins.
    for (int i = 0; i < 2 * capacityBlocks; i++) {
      insertAndClose(cache, 1, (long) i * BLOCK, BLOCK);
    }
    int hitsEach = 8 * CaffeineBlockTable.RECORDED_HIT_ONE_IN;
    int readOften = capacityBlocks / 2;
    for (int i = 0; i < readOften; i++) {
      insertAndClose(cache, 2, (long) i * BLOCK, BLOCK);
      for (int h = 0; h < hitsEach; h++) {
        CachedBlock hit = cache.lookup(2, (long) i * BLOCK);
        if (hit != null) {
          hit.close();
        }
      }
    }
    cache.stats(); // runs pending maintenance
    long kept = cache.cachedBlockCount(2);
    assertTrue(kept >= readOften * 8 / 10,
        "of " + readOften + " blocks hit " + hitsEach + " times each only " + kept + " were kept");
    assertEquals(capacityBlocks, cache.cachedBlockCount(1) + kept, "the cache stays full");
  }

  /**
   * A block read often, then not at all while the cache took in more than its capacity, stays
   * cached under W-TinyLFU (newcomers read once lose admission to it) but is no longer warm;
   * blocks read since are.
   */
  @Test
  void aBlockNotReadForACapacityOfInsertsIsCachedButNotWarm() {
    OffHeapBlockCache cache = newCache(64L * BLOCK);
    // Fill the cache first: Caffeine counts frequencies only once it is half full.
    for (long offset = 0; offset < 64L * BLOCK; offset += BLOCK) {
      insertAndClose(cache, 3, offset, BLOCK);
    }
    insertAndClose(cache, 1, 0, BLOCK);
    for (int i = 0; i < 50; i++) {
      cache.lookup(1, 0).close();
    }
    assertTrue(cache.isWarm(1, 0), "read just now");
    for (long offset = 0; offset < 200L * BLOCK; offset += BLOCK) {
      insertAndClose(cache, 2, offset, BLOCK);
    }
    assertTrue(cache.isCached(1, 0), "W-TinyLFU keeps the frequently read block");
    assertFalse(cache.isWarm(1, 0), "200 blocks came in since its last read; capacity is 64");
    assertEquals(0, cache.warmBlockCount(1));
    for (int i = 0; i < 200; i++) {
      if (cache.isCached(2, i * (long) BLOCK)) {
        // Block i came in with 199 - i blocks after it: warm while fewer than 64 did.
        assertEquals(199 - i < 64, cache.isWarm(2, i * (long) BLOCK), "block " + i);
      }
    }

    cache.lookup(1, 0).close();
    assertTrue(cache.isWarm(1, 0), "a read makes it warm again");
    assertEquals(1, cache.warmBlockCount(1));
    assertFalse(cache.isWarm(4, 0), "never cached");
  }
}

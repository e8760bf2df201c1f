package dev.cairn.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The block cache contract under TinyLFU's admission over a CLOCK, and what is that policy's own:
 * frequent blocks resist a stream of one-time blocks, a block asked for again gets in, a block
 * read in the window gets in, and the hand's second chance.
 */
class ClockBlockCacheTest extends BlockCacheContractTest {
  @Override
  EvictionPolicy policy() {
    return EvictionPolicy.TINY_LFU_CLOCK;
  }

  /** A scan of blocks read once turns no frequently read block out (LRU would lose them all). */
  @Test
  void blocksReadOftenSurviveAStreamOfBlocksReadOnce() {
    int blocks = 64;
    OffHeapBlockCache cache = newCache((long) blocks * BLOCK);
    for (int i = 0; i < blocks; i++) {
      insertAndClose(cache, 1, (long) i * BLOCK, BLOCK);
    }
    for (int i = 0; i < blocks; i++) { // one read each: the hand will count it and pass on
      cache.lookup(1, (long) i * BLOCK).close();
    }
    for (int i = 0; i < 4 * blocks; i++) {
      insertAndClose(cache, 2, (long) i * BLOCK, BLOCK);
    }
    assertEquals(blocks, cache.cachedBlockCount(1), "every frequently read block kept");
    CacheStats stats = cache.stats();
    assertEquals(4L * blocks, stats.evictions(), "each newcomer turned away: " + stats);
    assertEquals(stats.evictions(), stats.evictedWarm(), "newcomers evicted while warm");
  }

  /**
   * A block turned away is still counted, so one asked for again gets in over a victim inserted
   * once and never read; and its return tells the window it was too small: the window grows by
   * the block (here a 64th of the cache, the least it moves), so the block stays in the window
   * and the hand's victim leaves. How the sketch's counts decide admission with the window
   * fixed: {@code ClockBlockTableTest}.
   */
  @Test
  void aBlockAskedForAgainGetsInAndGrowsTheWindow() {
    int blocks = 64;
    OffHeapBlockCache cache = newCache((long) blocks * BLOCK);
    for (int i = 0; i < blocks; i++) {
      insertAndClose(cache, 1, (long) i * BLOCK, BLOCK);
    }
    assertEquals(blocks, cache.cachedBlockCount(1), "a window too small for a block takes no room");
    long window = cache.stats().windowBytes();
    assertTrue(window > 0 && window < BLOCK, "1% of the cache: " + window);
    insertAndClose(cache, 2, 0, BLOCK);
    assertFalse(cache.isCached(2, 0), "asked for once: ties with its victim and is turned away");
    assertEquals(window, cache.stats().windowBytes());
    insertAndClose(cache, 2, 0, BLOCK);
    assertTrue(cache.isCached(2, 0), "asked for twice: kept");
    assertEquals(window + BLOCK, cache.stats().windowBytes(), "the window grew by the block");
    assertFalse(cache.isCached(1, 0), "the hand's first block was the victim");
    assertEquals(blocks - 1, cache.cachedBlockCount(1));
  }

  /** The hand passes blocks read since its last turn (clearing their bit) and evicts the first unread one. */
  @Test
  void theHandGivesReadBlocksASecondChance() {
    int blocks = 8;
    OffHeapBlockCache cache = newCache((long) blocks * BLOCK);
    for (int i = 0; i < blocks; i++) {
      insertAndClose(cache, 1, (long) i * BLOCK, BLOCK);
    }
    // Every block but 5 read once: the hand clears 0-4, stops at 5.
    for (int i = 0; i < blocks; i++) {
      if (i != 5) {
        cache.lookup(1, (long) i * BLOCK).close();
      }
    }
    // A newcomer asked for often enough to win against an unread block counted once.
    for (int ask = 0; ask < 3; ask++) {
      insertAndClose(cache, 2, 0, BLOCK);
    }
    assertTrue(cache.isCached(2, 0));
    assertFalse(cache.isCached(1, 5L * BLOCK), "the one block not read is the victim");
    assertEquals(blocks - 1, cache.cachedBlockCount(1));
  }

  /** A quiet lookup (a compaction's read) sets no bit: the block is the hand's victim as if unread. */
  @Test
  void quietLookupsGiveNoSecondChance() {
    int blocks = 8;
    OffHeapBlockCache cache = newCache((long) blocks * BLOCK);
    for (int i = 0; i < blocks; i++) {
      insertAndClose(cache, 1, (long) i * BLOCK, BLOCK);
    }
    cache.lookupQuietly(1, 0).close();
    for (int ask = 0; ask < 2; ask++) {
      insertAndClose(cache, 2, 0, BLOCK);
    }
    assertTrue(cache.isCached(2, 0));
    assertFalse(cache.isCached(1, 0), "the first block, read only quietly, left");
  }

  /** Newcomers pass through a window of a hundredth of the capacity before admission. */
  @Test
  void aBlockReadWhileInTheWindowIsAdmitted() {
    long capacity = 1 << 20; // one shard: 256 blocks, a window of 2
    OffHeapBlockCache cache = newCache(capacity);
    int blocks = (int) (capacity / BLOCK);
    for (int i = 0; i < blocks; i++) {
      insertAndClose(cache, 1, (long) i * BLOCK, BLOCK);
    }
    insertAndClose(cache, 2, 0, BLOCK);
    assertTrue(cache.isCached(2, 0), "in the window");
    cache.lookup(2, 0).close();
    insertAndClose(cache, 3, 0, BLOCK);
    insertAndClose(cache, 3, BLOCK, BLOCK); // pushes block (2, 0) out of the window
    assertTrue(cache.isCached(2, 0), "its read in the window won it a place");
    insertAndClose(cache, 3, 2L * BLOCK, BLOCK); // and now (3, 0)
    assertFalse(cache.isCached(3, 0), "never read: turned away when it left the window");
    assertEquals(capacity, cache.stats().usedBytes(), "the cache stays full");
  }

  /** Shards of at least a mebibyte, a power of two, at most 16: a small cache is one exact policy. */
  @Test
  void shardsKeepAtLeastAMebibyteEach() {
    BlockTable.RemovalListener ignore = (key, block, forRoom) -> {};
    assertEquals(1, new ClockBlockTable(0, ignore).shardCount());
    assertEquals(1, new ClockBlockTable((2 << 20) - 1, ignore).shardCount());
    assertEquals(2, new ClockBlockTable(2 << 20, ignore).shardCount());
    assertEquals(16, new ClockBlockTable(16L << 20, ignore).shardCount());
    assertEquals(16, new ClockBlockTable(1L << 40, ignore).shardCount());
  }

  /** Blocks of many sizes over several shards: never above the capacity, and full once warm. */
  @Test
  void blocksOfManySizesStayWithinCapacity() {
    long capacity = 4L << 20;
    OffHeapBlockCache cache = newCache(capacity);
    SplittableRandom random = new SplittableRandom(21);
    int warm = 10_000;
    long mostFreeOnceWarm = 0;
    for (int i = 0; i < 20_000; i++) {
      int size = 1 + random.nextInt(3 * BLOCK);
      long offset = random.nextInt(4000) * 16384L;
      if (random.nextInt(3) == 0 && cache.isCached(1, offset)) {
        cache.lookup(1, offset).close();
      } else {
        cache.insert(1, offset, Blocks.buffer(Blocks.bytes(1, offset, size))).close();
      }
      long used = cache.stats().usedBytes();
      assertTrue(used <= capacity, "used " + used + " of " + capacity);
      if (i >= warm) {
        mostFreeOnceWarm = Math.max(mostFreeOnceWarm, capacity - used);
      }
    }
    // Four shards, blocks of at most 3 * BLOCK: a warm shard never has more than a block's room,
    // at any step (a drift in the shards' byte counts would show here).
    assertTrue(mostFreeOnceWarm < 3 * BLOCK * 4L, "free once warm: " + mostFreeOnceWarm);
    CacheStats stats = cache.stats();
    assertEquals(stats.inserts() - stats.evictions(), stats.blockCount());
  }
}

package dev.cairn.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The block cache contract under LRU, and what is LRU's own: every block admitted, recency decides. */
class LruBlockCacheTest extends BlockCacheContractTest {
  @Override
  EvictionPolicy policy() {
    return EvictionPolicy.LRU;
  }

  /**
   * The case W-TinyLFU loses ({@link TinyLfuBlockCacheTest}, the newcomers turned away): a full
   * cache of blocks read many times, then a quarter of its capacity in new blocks. LRU keeps every
   * newcomer and drops the blocks read least recently.
   */
  @Test
  void newcomersAreAdmittedAndTheLeastRecentlyReadBlocksLeave() {
    int blocks = 64;
    OffHeapBlockCache cache = newCache((long) blocks * BLOCK);
    for (int i = 0; i < blocks; i++) {
      insertAndClose(cache, 1, (long) i * BLOCK, BLOCK);
    }
    for (int read = 0; read < 64; read++) { // the last pass reads blocks 0..63 in order
      for (int i = 0; i < blocks; i++) {
        cache.lookup(1, (long) i * BLOCK).close();
      }
    }
    for (int i = 0; i < blocks / 4; i++) {
      insertAndClose(cache, 2, (long) i * BLOCK, BLOCK);
    }
    assertEquals(blocks / 4, cache.cachedBlockCount(2), "every newcomer admitted");
    for (int i = 0; i < blocks; i++) {
      assertEquals(i >= blocks / 4, cache.isCached(1, (long) i * BLOCK), "block " + i + " of the read set");
    }
    assertEquals(blocks / 4, cache.stats().evictions());
  }

  /** A quiet lookup (a compaction's read) leaves a block's place alone; a user's read moves it up. */
  @Test
  void onlyRecordedLookupsMoveABlockUp() {
    OffHeapBlockCache cache = newCache(4L * BLOCK);
    for (int i = 0; i < 4; i++) {
      insertAndClose(cache, 1, (long) i * BLOCK, BLOCK);
    }
    try (CachedBlock quiet = cache.lookupQuietly(1, 0)) {
      assertNotNull(quiet);
    }
    insertAndClose(cache, 1, 4L * BLOCK, BLOCK);
    assertFalse(cache.isCached(1, 0), "the oldest block left though it was read quietly");

    cache.lookup(1, BLOCK).close(); // block 1 is now the most recent
    insertAndClose(cache, 1, 5L * BLOCK, BLOCK);
    assertTrue(cache.isCached(1, BLOCK), "a user's read kept block 1");
    assertFalse(cache.isCached(1, 2L * BLOCK), "block 2 was the least recently used");
    assertNull(cache.lookup(1, 2L * BLOCK));
  }

  /** RocksDB's rule: as many shards as keep half a mebibyte each, a power of two, at most 64. */
  @Test
  void shardsKeepAtLeastHalfAMebibyteEach() {
    BlockTable.RemovalListener ignore = (key, block, forRoom) -> {};
    assertEquals(1, new LruBlockTable(0, ignore).shardCount());
    assertEquals(1, new LruBlockTable((1 << 20) - 1, ignore).shardCount());
    assertEquals(2, new LruBlockTable(1 << 20, ignore).shardCount());
    assertEquals(32, new LruBlockTable(16L << 20, ignore).shardCount());
    assertEquals(64, new LruBlockTable(32L << 20, ignore).shardCount());
    assertEquals(64, new LruBlockTable(1L << 40, ignore).shardCount());
  }

  /** A block stays only in its own shard, so the largest cached is the smallest shard's share. */
  @Test
  void theLargestBlockCachedIsTheSmallestShardsShare() {
    assertEquals(512 << 10, newCache(4L << 20).largestCachedBlock(), "eight shards");
    assertEquals((1L << 20) / 2, newCache((1L << 20) + 1).largestCachedBlock(), "the last shard has no remainder");
    assertEquals(1000, newCache(1000).largestCachedBlock(), "one shard");
  }

  /** With several shards each evicts within its share, and together they fill the capacity. */
  @Test
  void shardedCacheStaysWithinCapacityAndFillsIt() {
    long capacity = 4L << 20; // eight shards of 128 blocks
    OffHeapBlockCache cache = newCache(capacity);
    for (int i = 0; i < 4000; i++) {
      insertAndClose(cache, 1 + i % 7, (long) i * BLOCK, BLOCK);
      assertTrue(cache.stats().usedBytes() <= capacity);
    }
    CacheStats stats = cache.stats();
    assertEquals(capacity / BLOCK, stats.blockCount(), "every shard full: " + stats);
    assertEquals(stats.inserts() - stats.evictions(), stats.blockCount());
  }
}

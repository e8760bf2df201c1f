package dev.cairn.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every eviction policy's block cache must do: ownership, counters, the per-file index,
 * capacity. {@link TinyLfuBlockCacheTest} and {@link LruBlockCacheTest} run it for each policy and
 * add what is the policy's own.
 */
abstract class BlockCacheContractTest {
  static final int BLOCK = 4096;

  final NettyBlockMemory memory = new NettyBlockMemory();
  private final List<OffHeapBlockCache> caches = new ArrayList<>();

  /** The policy under test. */
  abstract EvictionPolicy policy();

  OffHeapBlockCache newCache(long capacity) {
    OffHeapBlockCache cache = new OffHeapBlockCache(capacity, memory, policy());
    caches.add(cache);
    return cache;
  }

  /** Leak check: every test must leave no off-heap bytes behind. */
  @AfterEach
  void noPinnedBytesAfterClose() {
    caches.forEach(OffHeapBlockCache::close);
    assertEquals(0, memory.allocatedBytes(), "off-heap bytes leaked by the test");
  }

  static void insertAndClose(BlockCache cache, long file, long offset, int size) {
    cache.insert(file, offset, Blocks.buffer(Blocks.bytes(file, offset, size))).close();
  }

  @Test
  void insertedBlockIsFoundWithTheSameBytes() {
    OffHeapBlockCache cache = newCache(1 << 20);
    byte[] data = Blocks.bytes(7, 4096, BLOCK);
    // Only the remaining bytes are copied and the source position is left alone.
    ByteBuffer source = ByteBuffer.allocate(BLOCK + 10);
    source.position(10);
    source.put(data);
    source.position(10);
    try (CachedBlock inserted = cache.insert(7, 4096, source)) {
      assertEquals(10, source.position());
      assertEquals(BLOCK, inserted.size());
      assertArrayEquals(data, Blocks.read(inserted));
    }
    try (CachedBlock found = cache.lookup(7, 4096)) {
      assertNotNull(found);
      ByteBuffer view = found.contents();
      assertEquals(0, view.position());
      assertTrue(view.isReadOnly());
      assertTrue(view.isDirect(), "cached bytes live off-heap");
      assertArrayEquals(data, Blocks.read(found));
    }
    assertNull(cache.lookup(7, 0));
    assertNull(cache.lookup(8, 4096));
  }

  @Test
  void countersInTotalAndPerFile() {
    OffHeapBlockCache cache = newCache(1 << 20);
    assertNull(cache.lookup(1, 0));
    insertAndClose(cache, 1, 0, 100);
    cache.lookup(1, 0).close();
    cache.lookup(1, 0).close();
    assertNull(cache.lookup(1, 100));
    assertNull(cache.lookup(2, 0));

    CacheStats stats = cache.stats();
    assertEquals(new CacheStats(2, 3, 1, 0, 100, 1 << 20, 1, 100, 0, stats.windowBytes()), stats);
    assertEquals(0.4, stats.hitRatio(), 1e-9);
    assertEquals(new FileCacheStats(1, 2, 2, 1), cache.fileStats(1));
    assertEquals(new FileCacheStats(2, 0, 1, 0), cache.fileStats(2));
    assertEquals(new FileCacheStats(3, 0, 0, 0), cache.fileStats(3));
  }

  @Test
  void insertingACachedKeyReturnsTheCachedBlock() {
    OffHeapBlockCache cache = newCache(1 << 20);
    byte[] first = Blocks.bytes(1, 0, 1, 500);
    byte[] second = Blocks.bytes(1, 0, 2, 500);
    try (CachedBlock a = cache.insert(1, 0, Blocks.buffer(first));
        CachedBlock b = cache.insert(1, 0, Blocks.buffer(second))) {
      assertArrayEquals(first, Blocks.read(a));
      assertArrayEquals(first, Blocks.read(b));
      assertEquals(1, cache.stats().inserts());
      assertEquals(500, cache.stats().pinnedBytes(), "the second insert must not allocate");
    }
  }

  /** A written block is cached with its bytes; written again over a cached key, it changes nothing. */
  @Test
  void aWrittenBlockIsCachedAndDoesNotReplaceACachedOne() {
    OffHeapBlockCache cache = newCache(1 << 20);
    byte[] written = Blocks.bytes(3, 0, 1, 500);
    ByteBuffer source = Blocks.buffer(written);
    cache.insertWritten(3, 0, source);
    assertEquals(0, source.position(), "the source's position is left alone");
    cache.insertWritten(3, 0, Blocks.buffer(Blocks.bytes(3, 0, 2, 500)));
    try (CachedBlock found = cache.lookup(3, 0)) {
      assertNotNull(found);
      assertArrayEquals(written, Blocks.read(found));
    }
    assertEquals(1, cache.stats().inserts());
    assertEquals(1, cache.cachedBlockCount(3));
    assertTrue(cache.isWarm(3, 0), "a block cached to be read counts as read now");
    assertEquals(0, cache.stats().pinnedBytes() - 500, "only the cache holds it");
  }

  @Test
  void aWrittenBlockTooLargeToCacheIsNotCached() {
    OffHeapBlockCache cache = newCache(BLOCK - 1);
    cache.insertWritten(1, 0, Blocks.buffer(Blocks.bytes(1, 0, BLOCK)));
    assertEquals(0, cache.cachedBlockCount(1));
    assertEquals(0, cache.stats().inserts());
    assertEquals(0, cache.stats().pinnedBytes());
  }

  @Test
  void evictionKeepsUsedBytesWithinCapacityAndPerFileCountsExact() {
    long seed = System.nanoTime();
    try {
      long capacity = 16L * BLOCK;
      OffHeapBlockCache cache = newCache(capacity);
      SplittableRandom random = new SplittableRandom(seed);
      List<long[]> inserted = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        long file = 1 + random.nextInt(4);
        long offset = (long) random.nextInt(64) * BLOCK;
        int size = 1 + random.nextInt(BLOCK);
        insertAndClose(cache, file, offset, size);
        inserted.add(new long[] {file, offset});
        if (random.nextInt(3) == 0) {
          // Hits raise a key's frequency (TinyLFU then admits some newcomers) or recency (LRU).
          CachedBlock hit = cache.lookup(file, offset);
          if (hit != null) {
            hit.close();
          }
        }
        CacheStats stats = cache.stats();
        assertTrue(stats.usedBytes() <= capacity, "used " + stats.usedBytes() + " > capacity");
        assertEquals(stats.inserts() - stats.evictions(), stats.blockCount());
        assertEquals(stats.usedBytes(), stats.pinnedBytes(), "no reader holds a block");
      }
      assertTrue(cache.stats().evictions() > 0, "the test must exercise eviction");
      assertPerFileCountsMatchContents(cache, inserted);

      cache.evictFile(2);
      assertEquals(0, cache.cachedBlockCount(2));
      assertPerFileCountsMatchContents(cache, inserted);
    } catch (Throwable t) {
      throw new AssertionError("seed " + seed, t);
    }
  }

  /** Counts, per file, which inserted keys are really cached, and compares with the index. */
  static void assertPerFileCountsMatchContents(
      OffHeapBlockCache cache, List<long[]> inserted) {
    Map<Long, Long> expected = new HashMap<>();
    inserted.stream()
        .map(k -> new BlockKey(k[0], k[1]))
        .distinct()
        .forEach(
            k -> {
              CachedBlock found = cache.lookup(k.fileNumber(), k.offset());
              if (found != null) {
                found.close();
                expected.merge(k.fileNumber(), 1L, Long::sum);
              }
            });
    long total = 0;
    for (long file = 1; file <= 4; file++) {
      long count = cache.cachedBlockCount(file);
      assertEquals(expected.getOrDefault(file, 0L), count, "cached blocks of file " + file);
      total += count;
    }
    assertEquals(cache.stats().blockCount(), total);
  }

  @Test
  void evictFileDropsOnlyThatFile() {
    OffHeapBlockCache cache = newCache(1 << 20);
    for (int i = 0; i < 10; i++) {
      insertAndClose(cache, 1, (long) i * BLOCK, BLOCK);
      insertAndClose(cache, 2, (long) i * BLOCK, BLOCK);
    }
    assertEquals(10, cache.cachedBlockCount(1));
    cache.evictFile(1);
    cache.evictFile(99); // never cached: a no-op
    assertEquals(0, cache.cachedBlockCount(1));
    assertEquals(10, cache.cachedBlockCount(2));
    for (int i = 0; i < 10; i++) {
      assertNull(cache.lookup(1, (long) i * BLOCK));
      try (CachedBlock b = cache.lookup(2, (long) i * BLOCK)) {
        assertArrayEquals(Blocks.bytes(2, (long) i * BLOCK, BLOCK), Blocks.read(b));
      }
    }
    CacheStats stats = cache.stats();
    assertEquals(10, stats.evictions());
    assertEquals(10, stats.blockCount());
    assertEquals(10L * BLOCK, stats.usedBytes());
    assertEquals(10L * BLOCK, stats.pinnedBytes());
  }

  @Test
  void heldBlockSurvivesEvictionByCapacityIntact() {
    OffHeapBlockCache cache = newCache(4L * BLOCK);
    byte[] data = Blocks.bytes(1, 0, BLOCK);
    try (CachedBlock held = cache.insert(1, 0, Blocks.buffer(data))) {
      // Newcomers asked for twice and read often win TinyLFU's admission against the held block
      // (and push it out of an LRU). Once is not enough over a CLOCK with no room for a window:
      // a newcomer asked for once ties with the held block and is turned away at its insert.
      long offset = 0;
      while (cache.cachedBlockCount(1) > 0) {
        assertTrue(offset < 1000L * BLOCK, "block 1:0 was never evicted");
        offset += BLOCK;
        insertAndClose(cache, 2, offset, BLOCK);
        insertAndClose(cache, 2, offset, BLOCK);
        for (int i = 0; i < 3; i++) {
          cache.lookup(2, offset).close();
        }
      }
      assertNull(cache.lookup(1, 0));
      // Churn the allocator: freed memory of other evicted blocks is reused, ours must not be.
      for (int i = 0; i < 50; i++) {
        offset += BLOCK;
        insertAndClose(cache, 3, offset, BLOCK);
      }
      assertArrayEquals(data, Blocks.read(held));
      CacheStats stats = cache.stats();
      assertEquals(stats.usedBytes() + BLOCK, stats.pinnedBytes(), "held block is still pinned");
    }
    CacheStats stats = cache.stats();
    assertEquals(stats.usedBytes(), stats.pinnedBytes(), "closing the last holder frees it");
  }

  @Test
  void heldBlockSurvivesEvictFile() {
    OffHeapBlockCache cache = newCache(1 << 20);
    byte[] data = Blocks.bytes(5, 0, BLOCK);
    CachedBlock held = cache.insert(5, 0, Blocks.buffer(data));
    CachedBlock alsoHeld = cache.lookup(5, 0);
    cache.evictFile(5);
    assertEquals(0, cache.stats().usedBytes());
    assertEquals(BLOCK, cache.stats().pinnedBytes());
    held.close();
    assertArrayEquals(data, Blocks.read(alsoHeld), "one reader's close must not free another's");
    alsoHeld.close();
    assertEquals(0, cache.stats().pinnedBytes());
  }

  @Test
  void closeDropsEverythingAndHeldBlocksAreFreedByTheirReaders() {
    OffHeapBlockCache cache = newCache(1 << 20);
    for (int i = 0; i < 5; i++) {
      insertAndClose(cache, 1, i, 1000);
    }
    CachedBlock held = cache.lookup(1, 3);
    cache.close();
    cache.close(); // idempotent
    CacheStats stats = cache.stats();
    assertEquals(0, stats.blockCount());
    assertEquals(0, stats.usedBytes());
    assertEquals(0, stats.evictions(), "clearing at close is not eviction");
    assertEquals(1000, stats.pinnedBytes());
    assertArrayEquals(Blocks.bytes(1, 3, 1000), Blocks.read(held));
    held.close();
    assertEquals(0, cache.stats().pinnedBytes());

    // A closed cache still serves callers: lookups miss, inserts hand back private copies.
    assertNull(cache.lookup(1, 0));
    try (CachedBlock own = cache.insert(1, 0, Blocks.buffer(Blocks.bytes(1, 0, 10)))) {
      assertArrayEquals(Blocks.bytes(1, 0, 10), Blocks.read(own));
    }
    assertEquals(0, cache.stats().pinnedBytes());
    assertEquals(0, cache.cachedBlockCount(1));
  }

  @Test
  void capacityZeroCachesNothingAndInsertReturnsACallerOwnedBlock() {
    OffHeapBlockCache cache = newCache(0);
    byte[] data = Blocks.bytes(1, 0, BLOCK);
    try (CachedBlock own = cache.insert(1, 0, Blocks.buffer(data))) {
      assertArrayEquals(data, Blocks.read(own));
      assertNull(cache.lookup(1, 0));
      assertEquals(BLOCK, cache.stats().pinnedBytes());
    }
    assertEquals(new CacheStats(0, 1, 0, 0, 0, 0, 0, 0, 0, 0), cache.stats());
    assertEquals(0, cache.cachedBlockCount(1));
    assertEquals(0, cache.capacityBytes());
  }

  @Test
  void blockLargerThanCapacityIsNotCached() {
    OffHeapBlockCache cache = newCache(BLOCK - 1);
    insertAndClose(cache, 1, 0, BLOCK);
    insertAndClose(cache, 1, BLOCK, BLOCK - 1);
    assertNull(cache.lookup(1, 0));
    assertEquals(1, cache.cachedBlockCount(1));
    assertEquals(1, cache.stats().inserts());
  }

  /**
   * A block its shard could not keep is read but never cached, and evicts nothing: offered, it
   * would empty its shard for room and then leave itself.
   */
  @Test
  void blockLargerThanItsShardCanKeepIsNotCachedAndEvictsNothing() {
    long capacity = 4L << 20;
    OffHeapBlockCache cache = newCache(capacity);
    long largest = cache.largestCachedBlock();
    assertTrue(largest > 0 && largest <= capacity, "largest cached block " + largest);
    for (int i = 0; i < 512; i++) {
      insertAndClose(cache, 1, (long) i * BLOCK, BLOCK);
    }
    CacheStats before = cache.stats();
    for (int ask = 0; ask < 3; ask++) { // asked often, so no admission rule would turn it away
      CachedBlock big = cache.insert(2, 0, Blocks.buffer(Blocks.bytes(2, 0, (int) largest + 1)));
      assertArrayEquals(Blocks.bytes(2, 0, (int) largest + 1), Blocks.read(big), "the caller's block");
      big.close();
    }
    assertFalse(cache.isCached(2, 0));
    CacheStats after = cache.stats();
    assertEquals(before.inserts(), after.inserts(), "not counted as an insert");
    assertEquals(before.evictions(), after.evictions(), "evicted no one");
    assertEquals(512, cache.cachedBlockCount(1));
  }

  @Test
  void emptyBlocksAreCachedAndStillEvictable() {
    OffHeapBlockCache cache = newCache(10);
    for (int i = 0; i < 100; i++) {
      insertAndClose(cache, 1, i, 0);
    }
    CacheStats stats = cache.stats();
    assertTrue(stats.blockCount() <= 10, "zero-size blocks weigh 1, so at most 10 stay cached");
    assertEquals(0, stats.usedBytes());
  }

  @Test
  void misuseOfACachedBlockIsCaught() {
    OffHeapBlockCache cache = newCache(1 << 20);
    CachedBlock block = cache.insert(1, 0, Blocks.buffer(Blocks.bytes(1, 0, 10)));
    CachedBlock other = cache.lookup(1, 0);
    block.close();
    assertThrows(IllegalStateException.class, block::contents);
    // Tests run with -ea: a double close is a bug and must not drop the other reader's reference.
    assertThrows(AssertionError.class, block::close);
    assertArrayEquals(Blocks.bytes(1, 0, 10), Blocks.read(other));
    other.close();
  }

  @Test
  void negativeCapacityIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> new OffHeapBlockCache(-1, memory, policy()));
  }

}

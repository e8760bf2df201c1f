package dev.cairn.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.testkit.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Several threads look up, insert, hold and close blocks of a churning cache. Each block's
 * bytes are a function of its key, so a reader that got freed or foreign memory notices. Set
 * {@code -Dcairn.seed=N} to replay a failure. Each case runs under every eviction policy.
 */
class BlockCacheConcurrencyTest {
  private static final int THREADS = 4;
  private static final int FILES = 3;
  private static final int OFFSETS = 64;

  private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);

  @AfterEach
  void stopThreads() throws InterruptedException {
    pool.shutdownNow();
    assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), "worker threads did not stop");
  }

  private static int sizeOf(long file, long offset) {
    return 256 + (int) ((file * 131 + offset * 17) % 1024);
  }

  private static byte[] contentOf(long file, long offset) {
    return Blocks.bytes(file, offset, sizeOf(file, offset));
  }

  /** One shard under every policy: the blocks churn through a few dozen places. */
  @ParameterizedTest
  @EnumSource(EvictionPolicy.class)
  void readersInsertersAndEvictionsNeverLeakOrCorrupt(EvictionPolicy policy) throws Exception {
    churn(policy, 32 * 1024, OFFSETS);
  }

  /**
   * Several shards under the sharded policies (four of 1 MiB under the clock, eight of 512 KiB
   * under LRU): evictions in one shard race inserts and hits in the others.
   */
  @ParameterizedTest
  @EnumSource(EvictionPolicy.class)
  void severalShardsNeverLeakOrCorrupt(EvictionPolicy policy) throws Exception {
    churn(policy, 4L << 20, 128 * OFFSETS);
  }

  private void churn(EvictionPolicy policy, long capacity, int offsets) throws Exception {
    long seed = Seeds.seed();
    try {
      NettyBlockMemory memory = new NettyBlockMemory();
      OffHeapBlockCache cache = new OffHeapBlockCache(capacity, memory, policy);
      int opsPerThread = 20_000;

      List<Callable<Long>> workers = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        SplittableRandom random = new SplittableRandom(seed + t);
        workers.add(() -> runWorker(cache, random, opsPerThread, offsets));
      }
      long lookups = 0;
      for (Future<Long> f : pool.invokeAll(workers)) {
        lookups += f.get();
      }

      CacheStats stats = cache.stats();
      assertEquals(lookups, stats.hits() + stats.misses());
      assertTrue(stats.evictions() > 0, "the test must exercise eviction");
      assertTrue(stats.usedBytes() <= capacity, "used " + stats.usedBytes() + " > " + capacity);
      assertEquals(stats.inserts() - stats.evictions(), stats.blockCount());
      assertEquals(stats.usedBytes(), stats.pinnedBytes(), "no reader holds a block any more");
      long perFileTotal = 0;
      long perFileHits = 0;
      for (long file = 1; file <= FILES; file++) {
        perFileTotal += cache.cachedBlockCount(file);
        perFileHits += cache.fileStats(file).hits();
      }
      assertEquals(stats.blockCount(), perFileTotal);
      assertEquals(stats.hits(), perFileHits);
      for (long file = 1; file <= FILES; file++) {
        cache.evictFile(file);
      }
      assertEquals(0, cache.stats().blockCount());
      cache.close();
      assertEquals(0, memory.allocatedBytes(), "off-heap bytes leaked");
    } catch (Throwable t) {
      throw new AssertionError("seed " + seed, t);
    }
  }

  /** Returns the number of lookups done. */
  private static long runWorker(BlockCache cache, SplittableRandom random, int ops, int offsets) {
    List<CachedBlock> held = new ArrayList<>();
    List<byte[]> heldContent = new ArrayList<>();
    long lookups = 0;
    for (int i = 0; i < ops; i++) {
      long file = 1 + random.nextInt(FILES);
      long offset = random.nextInt(offsets);
      CachedBlock block = cache.lookup(file, offset);
      lookups++;
      if (block == null) {
        block = cache.insert(file, offset, Blocks.buffer(contentOf(file, offset)));
      }
      assertArrayEquals(contentOf(file, offset), Blocks.read(block), "block " + file + ":" + offset);
      if (random.nextInt(4) == 0) {
        held.add(block);
        heldContent.add(contentOf(file, offset));
      } else {
        block.close();
      }
      if (held.size() > 8) {
        int victim = random.nextInt(held.size());
        CachedBlock h = held.remove(victim);
        assertArrayEquals(heldContent.remove(victim), Blocks.read(h), "held block changed");
        h.close();
      }
    }
    for (int i = 0; i < held.size(); i++) {
      assertArrayEquals(heldContent.get(i), Blocks.read(held.get(i)), "held block changed");
      held.get(i).close();
    }
    return lookups;
  }

  @ParameterizedTest
  @EnumSource(EvictionPolicy.class)
  void racingInsertsOfOneKeyShareOneBlock(EvictionPolicy policy) throws Exception {
    NettyBlockMemory memory = new NettyBlockMemory();
    OffHeapBlockCache cache = new OffHeapBlockCache(1 << 20, memory, policy);
    CyclicBarrier start = new CyclicBarrier(THREADS);
    int rounds = 200;
    List<Callable<List<byte[]>>> workers = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      long salt = t;
      workers.add(
          () -> {
            List<byte[]> seen = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
              start.await(10, TimeUnit.SECONDS);
              // Each thread offers different bytes; all must get the one block that won.
              try (CachedBlock b =
                  cache.insert(9, round, Blocks.buffer(Blocks.bytes(9, round, salt, 300)))) {
                seen.add(Blocks.read(b));
              }
            }
            return seen;
          });
    }
    List<List<byte[]>> results = new ArrayList<>();
    for (Future<List<byte[]>> f : pool.invokeAll(workers)) {
      results.add(f.get());
    }
    for (int round = 0; round < rounds; round++) {
      for (int t = 1; t < THREADS; t++) {
        assertArrayEquals(results.get(0).get(round), results.get(t).get(round), "round " + round);
      }
    }
    CacheStats stats = cache.stats();
    assertEquals(rounds, stats.inserts());
    assertEquals(rounds * 300L, stats.pinnedBytes(), "a losing insert allocated and leaked");
    assertEquals(rounds, cache.cachedBlockCount(9));
    cache.close();
    assertEquals(0, memory.allocatedBytes());
  }
}

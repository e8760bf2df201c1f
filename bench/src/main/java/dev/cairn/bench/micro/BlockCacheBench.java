package dev.cairn.bench.micro;

import dev.cairn.cache.CachedBlock;
import dev.cairn.cache.EvictionPolicy;
import dev.cairn.cache.OffHeapBlockCache;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The block cache's two paths with 4 KiB blocks: a hit (lookup, read a byte through
 * {@code contents()}, close) on a cache that holds every block, and a miss (lookup, insert a
 * copy, close) on a full cache, so every insert also pays for an eviction. Run with {@code -t 2}
 * to see contention. Each under every eviction policy ({@code -p policy=LRU} for one). Under
 * {@code TINY_LFU_CLOCK} a miss's newcomer, asked for once, is usually turned away at once: the
 * miss pays for that eviction instead of another block's.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BlockCacheBench {
  static final int BLOCK = 4096;

  /** 4096 blocks (16 MiB) in a 64 MiB cache: every lookup hits. */
  @State(Scope.Benchmark)
  public static class HotCache {
    static final int BLOCKS = 4096;
    @Param({"TINY_LFU", "LRU", "TINY_LFU_CLOCK"})
    EvictionPolicy policy;
    OffHeapBlockCache cache;

    @Setup(Level.Trial)
    public void setUp() {
      cache = new OffHeapBlockCache(64L << 20, policy);
      ByteBuffer contents = randomBlock();
      for (int i = 0; i < BLOCKS; i++) {
        cache.insert(1, (long) i * BLOCK, contents).close();
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      cache.close();
      checkNoLeak(cache);
    }
  }

  /** A full 16 MiB cache; each insert is a new key. */
  @State(Scope.Benchmark)
  public static class FullCache {
    @Param({"TINY_LFU", "LRU", "TINY_LFU_CLOCK"})
    EvictionPolicy policy;
    OffHeapBlockCache cache;

    @Setup(Level.Trial)
    public void setUp() {
      cache = new OffHeapBlockCache(16L << 20, policy);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      cache.close();
      checkNoLeak(cache);
    }
  }

  @State(Scope.Thread)
  public static class Reader {
    private static final AtomicLong THREADS = new AtomicLong();

    final SplittableRandom random = new SplittableRandom(7);
    ByteBuffer contents;
    long fileNumber;
    long nextOffset;

    @Setup(Level.Trial)
    public void setUp() {
      contents = randomBlock();
      // One file per thread, so threads never insert each other's keys.
      fileNumber = 100 + THREADS.incrementAndGet();
    }
  }

  @Benchmark
  public byte hitLookupClose(HotCache hot, Reader reader) {
    long offset = (long) reader.random.nextInt(HotCache.BLOCKS) * BLOCK;
    try (CachedBlock block = hot.cache.lookup(1, offset)) {
      return block.contents().get(BLOCK - 1);
    }
  }

  @Benchmark
  public byte missInsertClose(FullCache full, Reader reader) {
    long offset = reader.nextOffset;
    reader.nextOffset += BLOCK;
    CachedBlock found = full.cache.lookup(reader.fileNumber, offset);
    try (CachedBlock block =
        found != null ? found : full.cache.insert(reader.fileNumber, offset, reader.contents)) {
      return block.contents().get(BLOCK - 1);
    }
  }

  static ByteBuffer randomBlock() {
    byte[] bytes = new byte[BLOCK];
    new SplittableRandom(42).nextBytes(bytes);
    return ByteBuffer.wrap(bytes);
  }

  static void checkNoLeak(OffHeapBlockCache cache) {
    long pinned = cache.stats().pinnedBytes();
    if (pinned != 0) {
      throw new IllegalStateException("block cache leaked " + pinned + " bytes");
    }
  }
}

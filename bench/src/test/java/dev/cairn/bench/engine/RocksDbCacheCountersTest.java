package dev.cairn.bench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.workload.Keys;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.TickerType;

/**
 * The RocksDB engine's block cache hits and misses are those of user reads only, as Cairn's:
 * its compactions' lookups, which RocksDB's own data-block tickers count, are left out.
 */
class RocksDbCacheCountersTest {
  private static final int RECORDS = 4000;
  private static final int VALUE_BYTES = 1024;

  /**
   * 16 MiB of cache holds the ~4 MiB of data; 256 KiB memtables make the load flush and compact;
   * a 64 MiB level 1 takes the whole data, so that no compaction is pending after
   * {@link RocksDbEngine#compactAll}.
   */
  private static EngineSettings settings(boolean directReads) {
    return new EngineSettings(16L << 20, 256L << 10, 4096, 10, 64L << 20, 10, 1L << 20, directReads,
        0, 0, 0, 4000, 1024, 0, false, 0, false);
  }

  @Test
  void compactionsCountNeitherHitsNorMisses(@TempDir Path dir) {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    try (RocksDbEngine engine = new RocksDbEngine()) {
      engine.open(dir, settings(false));
      load(engine, random);
      long tickerLookups = rawDataLookups(engine);
      engine.compactAll();
      assertTrue(rawDataLookups(engine) > tickerLookups,
          "RocksDB's data-block tickers no longer count compaction reads: the engine's Javadoc and "
              + "docs/benchmarks.md say they do");
      assertEquals(0, engine.metrics().blockCacheHits(), "hits before any user read, seed " + seed);
      assertEquals(0, engine.metrics().blockCacheMisses(), "misses before any user read, seed " + seed);

      // Warm the cache with every key, then compact overwrites over it: the compaction's lookups
      // now hit cached blocks, and still count for nothing.
      for (int id = 0; id < RECORDS; id++) {
        engine.get(Keys.encode(id));
      }
      EngineMetrics warm = engine.metrics();
      long tickerHits = engine.ticker(TickerType.BLOCK_CACHE_DATA_HIT);
      for (int i = 0; i < RECORDS / 4; i++) {
        engine.put(Keys.encode(random.nextInt(RECORDS)), value(random));
      }
      engine.flush();
      engine.compactAll();
      assertTrue(engine.ticker(TickerType.BLOCK_CACHE_DATA_HIT) > tickerHits,
          "a compaction over cached blocks hits them, seed " + seed);
      assertEquals(warm.blockCacheHits(), engine.metrics().blockCacheHits(), "hits after compaction, seed " + seed);
      assertEquals(warm.blockCacheMisses(), engine.metrics().blockCacheMisses(),
          "misses after compaction, seed " + seed);
    }
  }

  @Test
  void everyGetOfAReaderThreadCountsItsOneDataBlock(@TempDir Path dir) throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    try (RocksDbEngine engine = new RocksDbEngine()) {
      engine.open(dir, settings(false));
      load(engine, random);
      engine.compactAll();
      // One sorted run and an empty memtable: a get of a present key looks up exactly one data
      // block. Two threads read, neither of them the one that opened the database.
      int gets = 600;
      List<byte[]> keys = new ArrayList<>();
      for (int i = 0; i < gets; i++) {
        keys.add(Keys.encode(random.nextInt(RECORDS)));
      }
      EngineMetrics before = engine.metrics();
      getFromTwoThreads(engine, keys);
      EngineMetrics cold = engine.metrics();
      long coldHits = cold.blockCacheHits() - before.blockCacheHits();
      long coldMisses = cold.blockCacheMisses() - before.blockCacheMisses();
      assertEquals(gets, coldHits + coldMisses, "lookups of " + gets + " gets, seed " + seed);
      assertTrue(coldMisses > 0, "the first gets miss, seed " + seed);

      getFromTwoThreads(engine, keys);
      EngineMetrics warm = engine.metrics();
      assertEquals(gets, warm.blockCacheHits() - cold.blockCacheHits(), "repeated gets hit, seed " + seed);
      assertEquals(0, warm.blockCacheMisses() - cold.blockCacheMisses(), "repeated gets hit, seed " + seed);
    }
  }

  /**
   * With no compaction running, the tickers count user reads alone, so the engine's figures must
   * equal them. Direct reads matter: there a scan's readahead buffer serves blocks that the perf
   * context's block read count leaves out, so misses must come from elsewhere.
   */
  @Test
  void scanLookupsEqualTheTickersWhenNoCompactionRuns(@TempDir Path dir) {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    try (RocksDbEngine engine = new RocksDbEngine()) {
      engine.open(dir, settings(true));
      load(engine, random);
      engine.compactAll();
      EngineMetrics before = engine.metrics();
      long tickerHits = engine.ticker(TickerType.BLOCK_CACHE_DATA_HIT);
      long tickerMisses = engine.ticker(TickerType.BLOCK_CACHE_DATA_MISS);
      for (int i = 0; i < 40; i++) {
        assertEquals(100, engine.scan(Keys.encode(random.nextInt(RECORDS - 100)), 100), "seed " + seed);
      }
      EngineMetrics after = engine.metrics();
      long misses = after.blockCacheMisses() - before.blockCacheMisses();
      assertEquals(engine.ticker(TickerType.BLOCK_CACHE_DATA_HIT) - tickerHits,
          after.blockCacheHits() - before.blockCacheHits(), "scan hits, seed " + seed);
      assertEquals(engine.ticker(TickerType.BLOCK_CACHE_DATA_MISS) - tickerMisses, misses,
          "scan misses, seed " + seed);
      // 40 scans of 100 KiB-records cross ~1,000 blocks; at least the first block of each misses.
      assertTrue(misses >= 40, "scan misses " + misses + ", seed " + seed);
    }
  }

  @Test
  void theUncountedEngineReadsAsTheCountedOneAndReportsNoCounters(@TempDir Path dir) {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    try (RocksDbEngine engine = (RocksDbEngine) Engines.create("rocksdb-uncounted")) {
      engine.open(dir, settings(false));
      load(engine, random);
      for (int id = 0; id < RECORDS; id += 97) {
        assertEquals(VALUE_BYTES, engine.get(Keys.encode(id)).length, "key " + id + ", seed " + seed);
      }
      assertEquals(100, engine.scan(Keys.encode(RECORDS - 200), 100));
      EngineMetrics m = engine.metrics();
      for (long counter : new long[] {m.blockCacheHits(), m.blockCacheMisses(), m.deviceBytesWritten(),
          m.compactionBytesWritten(), m.stallMicros()}) {
        assertEquals(EngineMetrics.UNAVAILABLE, counter, "the uncounted engine counted: " + m);
      }
      assertTrue(Double.isNaN(m.hitRatioSince(m)));
    }
  }

  private static void load(RocksDbEngine engine, Random random) {
    List<Integer> ids = new ArrayList<>();
    for (int id = 0; id < RECORDS; id++) {
      ids.add(id);
    }
    java.util.Collections.shuffle(ids, random);
    for (int id : ids) {
      engine.put(Keys.encode(id), value(random));
    }
    engine.flush();
  }

  private static byte[] value(Random random) {
    byte[] v = new byte[VALUE_BYTES];
    random.nextBytes(v);
    return v;
  }

  private static long rawDataLookups(RocksDbEngine engine) {
    return engine.ticker(TickerType.BLOCK_CACHE_DATA_HIT) + engine.ticker(TickerType.BLOCK_CACHE_DATA_MISS);
  }

  private static void getFromTwoThreads(RocksDbEngine engine, List<byte[]> keys) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      int half = keys.size() / 2;
      List<Future<?>> done = List.of(
          pool.submit(() -> keys.subList(0, half).forEach(engine::get)),
          pool.submit(() -> keys.subList(half, keys.size()).forEach(engine::get)));
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }
}

package dev.cairn.bench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.workload.Keys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.TickerType;

/**
 * rocksdb-best is RocksDB with its cache-keeping options really on: the options it runs with say
 * so, a flushed block is in the cache before any read asks for it, and a user read's misses are
 * counted from the reading thread (the data-add ticker now counts flushes' and compactions' adds).
 */
class RocksDbBestTest {
  private static final int RECORDS = 2000;

  /** 16 MiB of cache holds the ~2 MiB of data; one flush writes it all into one table. */
  private static EngineSettings settings() {
    return new EngineSettings(16L << 20, 8L << 20, 4096, 10, 64L << 20, 10, 1L << 20, false,
        0, 0, 0, RECORDS, 1024, 0, false, 0, false);
  }

  @Test
  void theOptionsRocksDbRunsWithAreTheCacheKeepingOnes(@TempDir Path dir) throws IOException {
    try (RocksDbEngine engine = new RocksDbEngine(RocksDbEngine.Tuning.BEST)) {
      engine.open(dir, settings());
      String options = latestOptionsFile(dir);
      for (String expected : new String[] {"prepopulate_block_cache=kFlushAndCompaction",
          "uncache_aggressiveness=" + RocksDbEngine.UNCACHE_AGGRESSIVENESS, "cache_index_and_filter_blocks=true",
          "cache_index_and_filter_blocks_with_high_priority=true", "pin_l0_filter_and_index_blocks_in_cache=true",
          "block_size=4096", "compression=kNoCompression"}) {
        assertTrue(options.contains(expected), "OPTIONS lacks " + expected);
      }
    }
  }

  /** {@code --compression} reaches both tunings at every level, ZSTD with its level. */
  @Test
  void theRunnersCodecIsWhatRocksDbRunsWith(@TempDir Path best, @TempDir Path plain) throws IOException {
    EngineSettings s = settings();
    EngineSettings zstd = new EngineSettings(s.blockCacheBytes(), s.memtableBytes(), s.blockBytes(), s.bloomBitsPerKey(),
        s.baseLevelBytes(), s.levelSizeRatio(), s.targetFileBytes(), false, 0, 0, 0, RECORDS, 1024, 0, false, 0, false,
        dev.cairn.config.Compression.zstd(5));
    for (Object[] run : new Object[][] {{RocksDbEngine.Tuning.BEST, best}, {RocksDbEngine.Tuning.DEFAULTS, plain}}) {
      try (RocksDbEngine engine = new RocksDbEngine((RocksDbEngine.Tuning) run[0])) {
        engine.open((Path) run[1], zstd);
        String options = latestOptionsFile((Path) run[1]);
        for (String expected : new String[] {"compression=kZSTD", "bottommost_compression=kZSTD"}) {
          assertTrue(options.contains(expected), run[0] + ": OPTIONS lacks " + expected);
        }
        assertTrue(options.matches("(?s).*compression_opts=\\{[^}]*level=5;.*"), run[0] + ": no level 5 in " + options);
      }
    }
  }

  @Test
  void aFlushedBlockIsCachedBeforeAnyReadAndItsGetHits(@TempDir Path best, @TempDir Path plain) {
    try (RocksDbEngine warmed = new RocksDbEngine(RocksDbEngine.Tuning.BEST);
        RocksDbEngine defaults = new RocksDbEngine()) {
      warmed.open(best, settings());
      defaults.open(plain, settings());
      load(warmed);
      load(defaults);
      assertTrue(warmed.ticker(TickerType.BLOCK_CACHE_DATA_ADD) > 0, "the flush put its data blocks in the cache");
      assertEquals(0, warmed.metrics().blockCacheMisses(), "no user read yet, so no miss");
      for (int id = 0; id < RECORDS; id += 100) {
        warmed.get(Keys.encode(id));
        defaults.get(Keys.encode(id));
      }
      assertEquals(RECORDS / 100, warmed.metrics().blockCacheHits(), "every get found its flushed block cached");
      assertEquals(0, warmed.metrics().blockCacheMisses());
      assertEquals(RECORDS / 100, defaults.metrics().blockCacheMisses(), "at the defaults every first get misses");
    }
  }

  private static void load(RocksDbEngine engine) {
    Random random = new Random(3);
    for (int id = 0; id < RECORDS; id++) {
      byte[] v = new byte[1024];
      random.nextBytes(v);
      engine.put(Keys.encode(id), v);
    }
    engine.flush();
  }

  private static String latestOptionsFile(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      Path latest = files.filter(p -> p.getFileName().toString().startsWith("OPTIONS-")).sorted()
          .reduce((a, b) -> b).orElseThrow(() -> new AssertionError("no OPTIONS file in " + dir));
      return Files.readString(latest);
    }
  }
}

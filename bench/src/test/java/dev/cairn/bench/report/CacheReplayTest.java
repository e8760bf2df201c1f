package dev.cairn.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.cli.Flags;
import dev.cairn.bench.cli.UsageException;
import dev.cairn.cache.BlockCache;
import dev.cairn.cache.BlockCacheTrace;
import dev.cairn.cache.EvictionPolicy;
import dev.cairn.cache.OffHeapBlockCache;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cache-replay}: a table row per capacity, policy and way of caching written blocks. */
class CacheReplayTest {
  @TempDir Path dir;

  /** A trace of one block written and then read twice: each way of caching it shows in the table. */
  @Test
  void eachPolicyAndCapacityGetsItsRows() throws Exception {
    Path file = dir.resolve("t.trace");
    try (BlockCache cache = new OffHeapBlockCache(1 << 20, EvictionPolicy.LRU);
        BlockCacheTrace trace = BlockCacheTrace.create(file)) {
      cache.startTrace(trace);
      cache.insertWritten(1, 0, ByteBuffer.wrap(new byte[4096]));
      cache.lookup(1, 0).close();
      cache.lookup(1, 0).close();
      cache.stopTrace();
    }
    String table = CacheReplay.render(file, List.of(1L, 2L), 0);
    long rows = table.lines().filter(l -> l.startsWith("| ") && l.contains(" MiB |")).count();
    assertEquals(2 * (3 + 2 + 2), rows, table); // the clock has three ways, LRU and Caffeine two
    assertTrue(table.contains("| 1 MiB | lru | as written | 1.0000 | 1.0000 | 2 | - |"), table);
    assertTrue(table.contains("| 1 MiB | lru | not cached | 0.5000 | 0.5000 | 2 | - |"), table);
  }

  @Test
  void badArgumentsAreUsageErrors() {
    assertThrows(UsageException.class, () -> CacheReplay.run(new String[] {}));
    assertThrows(UsageException.class, () -> CacheReplay.run(new String[] {"--trace", dir.resolve("none").toString()}));
    UsageException mib = assertThrows(UsageException.class,
        () -> CacheReplay.run(new String[] {"--trace", dir.toString(), "--cache-mb", "0"}));
    assertTrue(mib.getMessage().contains("not a file") || mib.getMessage().contains("--cache-mb"), mib.getMessage());
  }

  @Test
  void compareCarriesCacheTraceToTheEngines() {
    assertTrue(Flags.parse("compare", new String[] {"--out", "x", "--cache-trace"}).config().engineSettings().cacheTrace());
    assertEquals(false, Flags.parse("compare", new String[] {"--out", "x"}).config().asMap().get("cache_trace"));
  }
}

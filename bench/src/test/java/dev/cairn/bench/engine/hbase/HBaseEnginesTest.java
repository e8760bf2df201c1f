package dev.cairn.bench.engine.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.engine.EngineMetrics;
import dev.cairn.bench.engine.EngineSettings;
import dev.cairn.bench.engine.Engines;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The HBase engines' registration, settings mapping and counters, without starting a server. */
class HBaseEnginesTest {
  private static final long MIB = 1L << 20;

  private static EngineSettings settings(long cacheBytes, double highOps, double lowOps) {
    return new EngineSettings(cacheBytes, 1L << 20, 4096, 10, 10L << 20, 10, 2L << 20, false, highOps, lowOps, 0,
        204_800, 1024, 64L << 20, false, 0, false);
  }

  @Test
  void theRunnerListsTheFourEnginesAndWhichRunsCairn() {
    List<String> names = Engines.names();
    for (String n : List.of("hbase-default", "hbase-cache-on-write", "hbase-prefetch", "hbase-dlc")) {
      assertTrue(names.contains(n), n + " in " + names);
      assertFalse(Engines.isCairn(n), n + " is a peer in a single run's ratios");
      assertEquals(n.equals("hbase-dlc"), Engines.runsCairn(n), n + " runs Cairn's plugin: Cairn's side in a series");
    }
    assertTrue(Engines.runsCairn("hbase-buffer"));
    assertEquals(HBaseEngine.Variant.DLC, ((HBaseEngine) Engines.create("hbase-dlc")).variant());
    // The host's A/A control: the default store under a second name.
    assertEquals(java.util.Optional.of("hbase-default"), Engines.controlOf("hbase-default-same"));
    assertEquals(HBaseEngine.Variant.DEFAULT, ((HBaseEngine) Engines.create("hbase-default-same")).variant());
  }

  @Test
  void theEnginesDifferOnlyInTheTablesConfiguration() {
    EngineSettings s = settings(60 * MIB, 0, 0);
    assertEquals(Map.of(), HBaseSettings.tableConfiguration(HBaseEngine.Variant.DEFAULT, s));
    assertEquals(Map.of("hbase.rs.cachecompactedblocksonwrite", "true"),
        HBaseSettings.tableConfiguration(HBaseEngine.Variant.CACHE_ON_WRITE, s));
    assertEquals(Map.of("hbase.rs.prefetchblocksonopen", "true"),
        HBaseSettings.tableConfiguration(HBaseEngine.Variant.PREFETCH, s));
    // hbase-best: every cache-keeping remedy at once, compacted output cached up to the cache's size.
    assertEquals(Map.of("hbase.rs.cacheblocksonwrite", "true", "hfile.block.index.cacheonwrite", "true",
        "hfile.block.bloom.cacheonwrite", "true", "hbase.rs.cachecompactedblocksonwrite", "true",
        "hbase.rs.cachecompactedblocksonwrite.threshold", Long.toString(60 * MIB),
        "hbase.rs.prefetchblocksonopen", "true"), HBaseSettings.tableConfiguration(HBaseEngine.Variant.BEST, s));
    // Outside periodic the plugin keeps its load limits' defaults, as cairn-table+dlc keeps DLC's.
    assertEquals(Map.of("hbase.hstore.defaultengine.compactionpolicy.class", "dev.cairn.hbase.CairnCompactionPolicy"),
        HBaseSettings.tableConfiguration(HBaseEngine.Variant.DLC, s));
    assertNull(HBaseSettings.cairnIoLimitsMb(s));

    HBaseClient.TableSpec spec = HBaseSettings.tableSpec(HBaseEngine.Variant.DEFAULT, s);
    assertEquals(4096, spec.blockBytes());
    assertEquals(1L << 20, spec.memstoreFlushBytes());
  }

  @Test
  void periodicSetsCairnsLimitsFromTheOfferedRates() {
    EngineSettings s = settings(60 * MIB, 3000, 300);
    long[] limits = HBaseSettings.cairnIoLimitsMb(s);
    double perGet = 0.7 * (1 - (60.0 * MIB) / (204_800 * 1040.0)) * 4096;
    assertEquals(Math.round(0.6 * 3000 * perGet / 1e6), limits[0]);
    assertEquals(Math.round(2 * 300 * perGet / 1e6), limits[1]);
    assertTrue(limits[1] < limits[0]);
    Map<String, String> c = HBaseSettings.tableConfiguration(HBaseEngine.Variant.DLC, s);
    assertEquals(Long.toString(limits[0]), c.get("cairn.compaction.io.high.limit.mb"));
    assertEquals(Long.toString(limits[1]), c.get("cairn.compaction.io.low.limit.mb"));
  }

  @Test
  void limitsSetOnTheCommandLineReachTheTableAndTheReportSaysSo() {
    String property = "cairn.hbase.configuration.dlc";
    System.setProperty(property, "cairn.compaction.io.high.limit.mb=6, cairn.compaction.io.low.limit.mb=3");
    try {
      EngineSettings s = settings(60 * MIB, 0, 0);
      Map<String, String> c = HBaseSettings.tableConfiguration(HBaseEngine.Variant.DLC, s);
      assertEquals("6", c.get("cairn.compaction.io.high.limit.mb"));
      assertEquals("3", c.get("cairn.compaction.io.low.limit.mb"));
      List<String> notes = HBaseSettings.unhonoured(HBaseEngine.Variant.DLC, s, HBaseSettings.serverSettings(s), null);
      assertTrue(notes.contains("dlc limits: io.high.limit.mb=6, io.low.limit.mb=3 set by -D" + property), notes.toString());
      assertTrue(notes.stream().noneMatch(n -> n.contains("the plugin's defaults")), notes.toString());

      System.setProperty(property, "cairn.compaction.io.high.limit.mb");
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> HBaseSettings.tableConfiguration(HBaseEngine.Variant.DLC, s));
      assertEquals("-D" + property + ": 'cairn.compaction.io.high.limit.mb' is not key=value", e.getMessage());
    } finally {
      System.clearProperty(property);
    }
  }

  @Test
  void theHeapGrowsWhenTheBlockCacheWouldNotFitHBasesShare() {
    assertEquals(1024 * MIB, HBaseSettings.serverSettings(settings(60 * MIB, 0, 0)).heapBytes());
    HBaseServer.Settings big = HBaseSettings.serverSettings(settings(600 * MIB, 0, 0));
    assertTrue(big.blockCacheBytes() < 0.4 * big.heapBytes(), "a fixed-size cache above 40% of the heap is ignored");
    assertEquals(0.0098, HBaseSettings.serverSettings(settings(60 * MIB, 0, 0)).bloomErrorRate(), 1e-4);
  }

  @Test
  void theHitRatioCountsClientDataLookupsOnly() {
    // The region server's counters after a smoke run: caching (client) lookups include the Bloom
    // chunks every get checks in every file; the typed counters separate them out.
    Map<String, Object> server = new HashMap<>();
    for (String a : HBaseCounters.CACHE_ATTRIBUTES) {
      server.put(a, 0L);
    }
    server.put("blockCacheHitCachingCount", 287_814L);
    server.put("blockCacheMissCachingCount", 9_692L);
    server.put("blockCacheBloomChunkHitCount", 222_100L);
    server.put("blockCacheBloomChunkMissCount", 40L);
    server.put("blockCacheLeafIndexHitCount", 18L);
    server.put("blockCacheMetaMissCount", 10L);
    assertEquals(287_814 - 222_100 - 18, HBaseCounters.userDataHits(server));
    assertEquals(9_692 - 40 - 10, HBaseCounters.userDataMisses(server));

    server.remove("blockCacheTrailerHitCount");
    assertEquals(EngineMetrics.UNAVAILABLE, HBaseCounters.userDataHits(server), "a missing counter is no figure");
    assertEquals(EngineMetrics.UNAVAILABLE, HBaseCounters.userDataMisses(Map.of()));
  }

  @Test
  void theTablesMetricsAreNamedAsTheRegionServerNamesThem() {
    assertEquals("Namespace_default_table_kv_metric_storeFileCount",
        HBaseCounters.tableAttribute(HBaseSettings.TABLE, "storeFileCount"));
  }
}

package dev.cairn.bench.engine.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.engine.EngineSettings;
import dev.cairn.bench.engine.node.AdapterBuild;
import dev.cairn.bench.engine.Engines;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Cassandra engines' registration and settings mapping, without starting a node. */
class CassandraEnginesTest {
  private static EngineSettings settings(double highOps, double lowOps) {
    return new EngineSettings(60L << 20, 1L << 20, 4096, 10, 10L << 20, 10, 2L << 20, false, highOps, lowOps, 0,
        204_800, 1024, 64L << 20, false, 0, false);
  }

  @Test
  void theRunnerListsEveryCassandraEngine() {
    List<String> names = Engines.names();
    for (String n : List.of("cassandra-lcs", "cassandra-ucs", "cassandra-cairn", "cassandra-cairn-ucs",
        "cassandra-cairn-warm", "cassandra-cairn-ucs-warm")) {
      assertTrue(names.contains(n), n + " in " + names);
      assertFalse(Engines.isCairn(n), n + " is a peer in a single run's ratios");
      assertEquals(n.startsWith("cassandra-cairn"), Engines.runsCairn(n),
          n + " runs Cairn's plugin: Cairn's side in a series");
    }
    assertEquals(CassandraEngine.Strategy.CAIRN, ((CassandraEngine) Engines.create("cassandra-cairn")).strategy());
    assertEquals(CassandraEngine.Strategy.CAIRN_UCS,
        ((CassandraEngine) Engines.create("cassandra-cairn-ucs")).strategy());
    assertEquals(java.util.Optional.of("cassandra-ucs"), Engines.controlOf("cassandra-ucs-same"));
    assertEquals(CassandraEngine.Strategy.UCS, ((CassandraEngine) Engines.create("cassandra-ucs-same")).strategy());
  }

  @Test
  void theStrategiesDifferOnlyInTheCompactionMap() {
    EngineSettings s = settings(0, 0);
    Map<String, String> lcs = CassandraSettings.compactionOptions(CassandraEngine.Strategy.LCS, s);
    assertEquals(Map.of("class", "LeveledCompactionStrategy", "sstable_size_in_mb", "2", "fanout_size", "10"), lcs);
    assertEquals(Map.of("class", "UnifiedCompactionStrategy", "target_sstable_size", "2MiB"),
        CassandraSettings.compactionOptions(CassandraEngine.Strategy.UCS, s));
    // Outside periodic the plugin keeps its load limits' defaults, as cairn-table+dlc keeps DLC's.
    assertEquals(Map.of("class", "dev.cairn.cassandra.CairnCompactionStrategy", "sstable_size_in_mb", "2",
        "fanout_size", "10"), CassandraSettings.compactionOptions(CassandraEngine.Strategy.CAIRN, s));
    assertEquals(Map.of("class", "dev.cairn.cassandra.CairnUnifiedCompactionStrategy", "target_sstable_size", "2MiB"),
        CassandraSettings.compactionOptions(CassandraEngine.Strategy.CAIRN_UCS, s), "UCS's map, Cairn's class");
    assertEquals(Map.of("class", "dev.cairn.cassandra.CairnUnifiedCompactionStrategy", "target_sstable_size", "2MiB",
        "warm_output", "true"), CassandraSettings.compactionOptions(CassandraEngine.Strategy.CAIRN_UCS_WARM, s),
        "the plugin's default but for warming");
    assertEquals("true", CassandraSettings.compactionOptions(CassandraEngine.Strategy.CAIRN_WARM, s)
        .get("warm_output"));
    assertNull(CassandraSettings.cairnIoLimitsMb(s));
  }

  @Test
  void periodicSetsCairnsLimitsBetweenThePhases() {
    long[] limits = CassandraSettings.cairnIoLimitsMb(settings(3000, 300));
    // 60 MiB of ~208 MiB cached: 71% of gets expected to miss, each loading an 8 KiB chunk (the
    // chunk of a 7-record bucket of 1 KiB values).
    assertEquals(8192, CassandraSettings.bytesPerMiss(settings(3000, 300)));
    double perGet = 0.7 * (1 - (60.0 * (1 << 20)) / (204_800 * 1040.0)) * 8192;
    assertEquals(Math.round(0.6 * 3000 * perGet / 1e6), limits[0]);
    assertEquals(Math.round(2 * 300 * perGet / 1e6), limits[1]);
    assertTrue(limits[1] < limits[0]);
  }

  @Test
  void memtableFlushesAtTheConfiguredBytes() {
    CassandraNode.Settings n = CassandraSettings.nodeSettings(settings(0, 0));
    assertEquals(2, n.memtablePoolMib());
    assertEquals(0.5, n.memtableCleanupThreshold(), 1e-9);
    assertEquals(60 + 32, n.fileCacheMib(), "chunk cache plus Cassandra's 32 MiB buffer-pool reserve");
    assertEquals(4, n.columnIndexKib());
  }

  @Test
  void chunkSizeFollowsCassandrasDiskOptimizationBuffer() {
    // Partition-size histogram bounds ..., 1109, ..., 6866, 8239, 9887, ...
    assertEquals(8 << 10, CassandraSettings.chunkBytes(CassandraSettings.partitionBytes(1, 1024))); // crosses a page
    assertEquals(8 << 10, CassandraSettings.chunkBytes(CassandraSettings.partitionBytes(7, 1024))); // 7338 -> 8239
    assertEquals(16 << 10, CassandraSettings.chunkBytes(CassandraSettings.partitionBytes(8, 1024))); // 8383 -> 9887
    assertEquals(64 << 10, CassandraSettings.chunkBytes(CassandraSettings.partitionBytes(256, 1024)));
    assertEquals(4 << 10, CassandraSettings.chunkBytes(300));
  }

  @Test
  void bucketsAreTheMostRecordsAtTheSmallestChunk() {
    assertEquals(7, CassandraSettings.defaultBucketRecords(1024, 2L << 20));
    int small = CassandraSettings.defaultBucketRecords(100, 2L << 20);
    assertTrue(CassandraSettings.chunkBytes(CassandraSettings.partitionBytes(small, 100)) <= 8 << 10);
    assertTrue(CassandraSettings.chunkBytes(CassandraSettings.partitionBytes(small + 1, 100)) > 8 << 10);
    // Big values: one record per partition, never a partition over 1/64 of an SSTable.
    assertEquals(1, CassandraSettings.defaultBucketRecords(256 << 10, 2L << 20));
  }

  @Test
  void jvmFlagsFileIsParsedIntoArguments() {
    assertEquals(List.of("-Da=b", "--add-opens", "java.base/java.lang=ALL-UNNAMED"),
        AdapterBuild.parseJvmFlags("# comment\n-Da=b\n   --add-opens java.base/java.lang=ALL-UNNAMED\n\n"));
  }
}

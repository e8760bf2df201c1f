package dev.cairn.cassandra;

import dev.cairn.compaction.dlc.DlcConfig;
import dev.cairn.compaction.dlc.LoadCounters;
import dev.cairn.compaction.dlc.LoadEstimate;
import dev.cairn.compaction.dlc.LoadModel;
import dev.cairn.compaction.dlc.SharedCacheMisses;
import org.apache.cassandra.cache.ChunkCache;
import org.apache.cassandra.db.ColumnFamilyStore;

/**
 * DLC's load model fed from what Cassandra exposes for one table (docs/adapters/cassandra.md,
 * "The load signals"). With the chunk cache on, Eq. 6: the node's chunk-cache misses, of which the
 * table is charged its share of the node's reads ({@link SharedCacheMisses}), times the table's
 * chunk size. With it off, Eq. 3: every read of the table costs one chunk (a scan four).
 * Thread-safe, as {@link LoadModel} is.
 */
final class TableLoad {
  private final ColumnFamilyStore cfs;
  private final SharedCacheMisses sharedMisses = new SharedCacheMisses();
  private final LoadModel model;
  private final DlcConfig config;

  TableLoad(ColumnFamilyStore cfs, DlcConfig limits) {
    this.cfs = cfs;
    long chunk = chunkBytes(cfs);
    this.config = ChunkCache.instance != null
        ? limits
        : limits.toBuilder()
            .estimator(DlcConfig.Estimator.WEIGHTED_OPS)
            .getCostBytes(chunk)
            .scanCostBytes(4 * chunk)
            .build();
    this.model = new LoadModel(config, chunk, System::nanoTime, this::sample);
  }

  /** The settings in force, the estimator included. */
  DlcConfig config() {
    return config;
  }

  /** One interval: reads the counters and classifies the load. */
  LoadEstimate tick() {
    return model.tick();
  }

  LoadEstimate current() {
    return model.current();
  }

  /** The table's reads and its share of the node's chunk-cache misses, cumulative. */
  private LoadCounters.Sample sample() {
    long gets = cfs.metric.readLatency.latency.getCount();
    long scans = cfs.metric.rangeLatency.latency.getCount();
    long allReads = 0;
    for (ColumnFamilyStore store : ColumnFamilyStore.all()) {
      allReads += store.metric.readLatency.latency.getCount()
          + store.metric.rangeLatency.latency.getCount();
    }
    long nodeMisses = ChunkCache.instance == null ? 0 : ChunkCache.instance.metrics.misses.getCount();
    long misses = sharedMisses.observe(nodeMisses, gets + scans, allReads);
    return new LoadCounters.Sample(misses, gets, scans);
  }

  /** The table's chunk (compression chunk length): the unit the chunk cache holds. */
  private static long chunkBytes(ColumnFamilyStore cfs) {
    int chunk = cfs.metadata().params.compression.chunkLength();
    return chunk > 0 ? chunk : 16 * 1024;
  }
}

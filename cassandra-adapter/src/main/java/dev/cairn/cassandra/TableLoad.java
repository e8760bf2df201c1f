package dev.cairn.cassandra;

import dev.cairn.cassandra.warm.OutputWarmer;
import dev.cairn.compaction.dlc.DlcConfig;
import dev.cairn.compaction.dlc.LoadCounters;
import dev.cairn.compaction.dlc.LoadEstimate;
import dev.cairn.compaction.dlc.LoadModel;
import dev.cairn.compaction.dlc.SharedCacheMisses;
import org.apache.cassandra.cache.ChunkCache;
import org.apache.cassandra.db.ColumnFamilyStore;
import org.apache.cassandra.db.compaction.CompactionInfo;
import org.apache.cassandra.db.compaction.CompactionManager;

/**
 * DLC's load model fed from what Cassandra exposes for one table (docs/adapters/cassandra.md,
 * "The load signals"). With the chunk cache on, Eq. 6: the node's chunk-cache misses less the
 * chunks its compactions read in the same interval, of which the
 * table is charged its share of the node's reads ({@link SharedCacheMisses}), each costing the
 * bytes of an average cached chunk. The average, the cache's bytes over its entries, is what a
 * miss really loads: a compressed table's chunk is {@code chunk_length_in_kb}, but an
 * uncompressed one is read in buffers sized from its partitions (4 to 64 KiB). With the chunk
 * cache off, Eq. 3: every read of the table costs one compression chunk (a scan four).
 * Thread-safe: one ticker samples it, anyone reads {@link #current()}.
 */
final class TableLoad {
  private final ColumnFamilyStore cfs;
  private final SharedCacheMisses sharedMisses = new SharedCacheMisses();
  private final LoadModel model;
  private final DlcConfig config;
  private final long chunkBytes;
  // Guarded by this: the previous totals, and the client misses and their bytes so far.
  private long lastNodeMisses = -1;
  private long lastCompactionBytes;
  private long clientMisses;
  private long chargedMisses;
  private double chargedBytes;

  TableLoad(ColumnFamilyStore cfs, DlcConfig limits) {
    this.cfs = cfs;
    this.chunkBytes = chunkBytes(cfs);
    this.config = ChunkCache.instance != null
        ? limits
        : limits.toBuilder()
            .estimator(DlcConfig.Estimator.WEIGHTED_OPS)
            .getCostBytes(chunkBytes)
            .scanCostBytes(4 * chunkBytes)
            .build();
    // Eq. 6's block size is 1: the sample counts bytes already (misses × average chunk).
    this.model = new LoadModel(config, ChunkCache.instance != null ? 1 : chunkBytes,
        System::nanoTime, this::sample);
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

  /** The table's reads and the device bytes of its share of the chunk-cache misses, cumulative. */
  private synchronized LoadCounters.Sample sample() {
    long gets = cfs.metric.readLatency.latency.getCount();
    long scans = cfs.metric.rangeLatency.latency.getCount();
    long allReads = 0;
    for (ColumnFamilyStore store : ColumnFamilyStore.all()) {
      allReads += store.metric.readLatency.latency.getCount()
          + store.metric.rangeLatency.latency.getCount();
    }
    ChunkCache cache = ChunkCache.instance;
    if (cache == null) {
      return new LoadCounters.Sample(0, gets, scans);
    }
    long chunk = averageChunkBytes(cache);
    long nodeMisses = cache.metrics.misses.getCount();
    long compactionBytes = compactionBytesRead();
    if (lastNodeMisses >= 0) {
      // Compactions read through the chunk cache too, and so does the warming of their output;
      // their misses are no client's: each interval, take away the chunks the node's compactions
      // and warmings read (at most all its misses; such reads that hit the cache make this an
      // underestimate of the clients' misses, in that interval only).
      long compactionChunks = Math.max(0, compactionBytes - lastCompactionBytes) / chunk;
      clientMisses += Math.max(0, (nodeMisses - lastNodeMisses) - compactionChunks);
    }
    lastNodeMisses = nodeMisses;
    lastCompactionBytes = compactionBytes;
    long misses = sharedMisses.observe(clientMisses, gets + scans, allReads);
    chargedBytes += (double) Math.max(0, misses - chargedMisses) * chunk;
    chargedMisses = misses;
    return new LoadCounters.Sample((long) chargedBytes, gets, scans);
  }

  /** Bytes the node's compactions have read (finished ones, the running ones so far) and their outputs' warming. */
  private static long compactionBytesRead() {
    long bytes = CompactionManager.instance.getMetrics().bytesCompacted.getCount() + OutputWarmer.nodeBytesWarmed();
    for (CompactionInfo.Holder holder : CompactionManager.instance.active.getCompactions()) {
      CompactionInfo info = holder.getCompactionInfo();
      if (info.getUnit() == CompactionInfo.Unit.BYTES) {
        bytes += info.getCompleted();
      }
    }
    return bytes;
  }

  /** The bytes an average cached chunk holds; the table's chunk length while the cache is empty. */
  private long averageChunkBytes(ChunkCache cache) {
    int entries = cache.size();
    return entries == 0 ? chunkBytes : Math.max(1, cache.weightedSize() / entries);
  }

  /** The table's chunk (compression chunk length): the unit the chunk cache holds. */
  private static long chunkBytes(ColumnFamilyStore cfs) {
    int chunk = cfs.metadata().params.compression.chunkLength();
    return chunk > 0 ? chunk : 16 * 1024;
  }
}

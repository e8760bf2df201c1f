package dev.cairn.bench.engine.cassandra;

import dev.cairn.bench.engine.EngineSettings;
import dev.cairn.bench.engine.node.KeyValueProperty;
import dev.cairn.bench.workload.Keys;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import dev.cairn.bench.engine.cassandra.CassandraEngine.Strategy;
import java.util.Map;

/**
 * How the runner's common settings ({@link EngineSettings}) map onto a Cassandra node and its
 * table, for the three Cassandra engines: the node's yaml settings, each strategy's compaction
 * options (Cairn's load limits included), the bucket size of the key mapping and the chunk it
 * gives, and the settings that cannot be honoured. Pure: docs/benchmarks.md, "Cassandra engines",
 * explains each choice; {@link CassandraEngine} applies them.
 */
final class CassandraSettings {
  private static final long MIB = 1L << 20;

  private CassandraSettings() {}

  /** Periodic's share of gets (as {@code CairnTableEngine.PERIODIC_GET_FRACTION}). */
  static final double PERIODIC_GET_FRACTION = 0.7;

  /** Cassandra's default {@code compaction_throughput}, the same for all three engines. */
  static final int COMPACTION_THROUGHPUT_MIB = 64;

  /** Cassandra's default for one data directory on two cores: min(8, max(2, min(cores, disks))). */
  static final int CONCURRENT_COMPACTORS = 2;

  static final long DEFAULT_HEAP_MIB = 768;

  static CassandraNode.Settings nodeSettings(EngineSettings s) {
    long heap = Long.getLong("cairn.cassandra.heapMb", DEFAULT_HEAP_MIB) * MIB;
    // Flush at about memtableBytes of memtable memory: a pool of twice that (whole MiB) with the
    // cleanup threshold at memtableBytes' share of it.
    int pool = (int) Math.max(1, (2 * s.memtableBytes() + MIB - 1) / MIB);
    double threshold = Math.min(1.0, Math.max(0.01, (double) s.memtableBytes() / (pool * MIB)));
    int columnIndexKib = Math.max(1, s.blockBytes() >> 10);
    return new CassandraNode.Settings(heap, s.blockCacheBytes(), pool, threshold, columnIndexKib,
        CONCURRENT_COMPACTORS, COMPACTION_THROUGHPUT_MIB, s.nodePageCacheBytes());
  }

  /** The table's compaction map for a strategy, plus {@code -Dcairn.cassandra.options.<lcs|ucs|cairn>=k=v,...}. */
  static Map<String, String> compactionOptions(Strategy strategy, EngineSettings s) {
    Map<String, String> o = new LinkedHashMap<>();
    long sstableMib = sstableMib(s);
    switch (strategy) {
      case LCS -> {
        o.put("class", "LeveledCompactionStrategy");
        o.put("sstable_size_in_mb", Long.toString(sstableMib));
        o.put("fanout_size", Integer.toString(s.levelSizeRatio()));
      }
      case UCS -> {
        o.put("class", "UnifiedCompactionStrategy");
        o.put("target_sstable_size", sstableMib + "MiB");
      }
      case CAIRN, CAIRN_WARM -> {
        o.put("class", "dev.cairn.cassandra.CairnCompactionStrategy");
        o.put("sstable_size_in_mb", Long.toString(sstableMib));
        o.put("fanout_size", Integer.toString(s.levelSizeRatio()));
      }
      case CAIRN_UCS, CAIRN_UCS_WARM -> {
        o.put("class", "dev.cairn.cassandra.CairnUnifiedCompactionStrategy");
        o.put("target_sstable_size", sstableMib + "MiB");
      }
    }
    if (strategy.warmsOutput()) {
      o.put("warm_output", "true");
    }
    long[] limits = strategy.runsCairn() ? cairnIoLimitsMb(s) : null;
    if (limits != null) {
      o.put("io_high_limit_mb", Long.toString(limits[0]));
      o.put("io_low_limit_mb", Long.toString(limits[1]));
    }
    o.putAll(KeyValueProperty.read(optionsProperty(strategy)));
    return o;
  }

  /** The system property that overrides or adds table options of {@code strategy}. */
  static String optionsProperty(Strategy strategy) {
    return "cairn.cassandra.options." + strategy.optionsSuffix();
  }

  static long sstableMib(EngineSettings s) {
    return Math.max(1, Math.round((double) s.targetFileBytes() / MIB));
  }

  /**
   * Cairn's load limits ({@code io_high_limit_mb}, {@code io_low_limit_mb}) for periodic, or null
   * for other workloads (the strategy's defaults, as {@code cairn-table+dlc} keeps DLC's).
   *
   * <p>{@code cairn-table+dlc} sets them from the offered rates with every get costing one block
   * (Eq. 3): high at 60% of a high phase's estimate, low at twice a low phase's. The plugin with the
   * chunk cache on estimates from chunk-cache misses instead (Eq. 6, every miss costing an average
   * cached chunk: {@link #bytesPerMiss}), so the same rule is applied to the misses a phase is
   * expected to make:
   * gets × the expected miss fraction, taken as the share of the data the chunk cache cannot hold
   * ({@code 1 - cache / data}, at least 5%): a prior for uniform reads, which skewed reads beat.
   * Whole MB/s (the plugin's options are whole numbers), high at least 1, low below high.
   */
  static long[] cairnIoLimitsMb(EngineSettings s) {
    if (s.offeredHighOps() <= 0) {
      return null;
    }
    double perGet = PERIODIC_GET_FRACTION * expectedMissFraction(s) * bytesPerMiss(s);
    long high = Math.max(1, Math.round(0.6 * s.offeredHighOps() * perGet / 1e6));
    long low = Math.max(0, Math.min(high - 1, Math.round(2 * s.offeredLowOps() * perGet / 1e6)));
    return new long[] {high, low};
  }

  /** The chunk a miss loads, as the plugin charges it: the chunk of a bucket's partition. */
  static long bytesPerMiss(EngineSettings s) {
    return chunkBytes(partitionBytes(bucketRecords(s), s.valueBytes()));
  }

  /** Records per bucket: {@code -Dcairn.cassandra.bucketRecords}, or {@link #defaultBucketRecords}. */
  static int bucketRecords(EngineSettings s) {
    return Integer.getInteger("cairn.cassandra.bucketRecords",
        defaultBucketRecords(s.valueBytes(), s.targetFileBytes()));
  }

  /** The share of uniform reads the chunk cache cannot serve: {@code 1 - cache / data}, at least 5%. */
  static double expectedMissFraction(EngineSettings s) {
    double data = (double) s.records() * (Keys.KEY_BYTES + s.valueBytes());
    return data <= 0 ? 1 : Math.min(1, Math.max(0.05, 1 - s.blockCacheBytes() / data));
  }

  /** The false-positive rate of a Bloom filter with this many bits per key (0.63^bits: 10 bits, 1%). */
  static double bloomFpChance(int bitsPerKey) {
    return Math.min(0.5, Math.max(0.0001, Math.pow(0.63, bitsPerKey)));
  }

  /**
   * The table's {@code compression} map for the runner's codec: off, or Cassandra's LZ4 or Zstd
   * compressor over 4 KiB chunks (the block size every engine is given; Cassandra's own default is
   * 16 KiB), Zstd at the runner's level.
   */
  static Map<String, String> compression(dev.cairn.config.Compression c) {
    return switch (c.codec()) {
      case NONE -> Map.of("enabled", "false");
      case LZ4 -> new java.util.TreeMap<>(Map.of("class", "LZ4Compressor", "chunk_length_in_kb", "4"));
      case ZSTD -> new java.util.TreeMap<>(Map.of("class", "ZstdCompressor", "chunk_length_in_kb", "4",
          "compression_level", Integer.toString(c.level())));
    };
  }

  static List<String> unhonoured(Strategy strategy, EngineSettings s, CassandraNode.Settings n, int bucketRecords,
      String cgroupProblem) {
    List<String> u = new ArrayList<>();
    long partitionBytes = partitionBytes(bucketRecords, s.valueBytes());
    u.add("block-bytes=" + s.blockBytes() + ": Cassandra reads uncompressed SSTables in chunks of its"
        + " disk-optimization buffer (95th-percentile partition size rounded up to 4 KiB pages, at most"
        + " 64 KiB, down to a power of two for the chunk cache): about " + (chunkBytes(partitionBytes) >> 10)
        + " KiB for partitions of " + bucketRecords + " records; column_index_size=" + n.columnIndexKib()
        + "KiB is the row-index granularity within a partition");
    u.add("bloom-bits-per-key=" + s.bloomBitsPerKey() + ": bloom_filter_fp_chance="
        + String.format(Locale.ROOT, "%.4f", bloomFpChance(s.bloomBitsPerKey()))
        + " on partition keys (buckets of " + bucketRecords + " records), not on record keys");
    if (n.chunkCacheMib() * MIB != s.blockCacheBytes()) {
      u.add("block-cache-bytes=" + s.blockCacheBytes() + ": the chunk cache is whole MiB ("
          + n.chunkCacheMib() + " MiB" + (n.chunkCacheMib() == 0 ? ": off, so no hit ratio" : "") + ")");
    }
    u.add("block cache: Cassandra's chunk cache also serves (and counts, and is filled by) compaction reads;"
        + " hits and misses are node-wide (system tables included)");
    u.add(String.format(Locale.ROOT, "memtable-bytes=%d: approximated by memtable_cleanup_threshold=%.2f of"
            + " memtable_offheap_space=%dMiB (offheap_objects), which counts a little more than the rows' bytes"
            + " (smoke run at 1 MiB: 0.96 MiB flushed per flush)",
        s.memtableBytes(), n.memtableCleanupThreshold(), n.memtablePoolMib()));
    long sstableMib = sstableMib(s);
    if (s.engineDefaults()) {
      u.add("engine-defaults: the node keeps the runner's level shape (sstable_size_in_mb, fanout_size,"
          + " target_sstable_size as below), not Cassandra's own");
    }
    if (sstableMib * MIB != s.targetFileBytes()) {
      u.add("target-file-bytes=" + s.targetFileBytes() + ": whole MiB (" + sstableMib + " MiB)");
    }
    switch (strategy) {
      case LCS, CAIRN, CAIRN_WARM -> {
        long l1 = sstableMib * MIB * s.levelSizeRatio();
        if (l1 != s.baseLevelBytes()) {
          u.add("base-level-bytes=" + s.baseLevelBytes() + ": LCS's L1 is fanout_size x sstable_size_in_mb = "
              + (l1 / MIB) + " MiB");
        }
      }
      case UCS, CAIRN_UCS, CAIRN_UCS_WARM -> {
        u.add("base-level-bytes, level-size-ratio: UCS levels by density with its defaults"
            + " (scaling_parameters T4, base_shard_count 4, min_sstable_size 100MiB, sstable_growth 0.333);"
            + " only target_sstable_size=" + sstableMib + "MiB is set");
        u.add("l0_files: UCS exposes no level counts over JMX (-1)");
      }
    }
    if (strategy.runsCairn()) {
      long[] limits = cairnIoLimitsMb(s);
      Map<String, String> set = KeyValueProperty.read(optionsProperty(strategy));
      if (set.containsKey("io_high_limit_mb") || set.containsKey("io_low_limit_mb")) {
        Map<String, String> o = compactionOptions(strategy, s);
        u.add("dlc limits: io_high_limit_mb=" + o.getOrDefault("io_high_limit_mb", "48 (default)")
            + ", io_low_limit_mb=" + o.getOrDefault("io_low_limit_mb", "28 (default)") + " set by -D"
            + optionsProperty(strategy));
      } else {
        u.add(limits == null
            ? "dlc limits: the plugin's defaults (io_high_limit_mb 48, io_low_limit_mb 28), as cairn-table+dlc keeps"
                + " DLC's outside periodic"
            : "dlc limits: io_high_limit_mb=" + limits[0] + ", io_low_limit_mb=" + limits[1] + " from the offered rates,"
                + " charging each get a " + (bytesPerMiss(s) >> 10) + " KiB chunk per chunk-cache miss times an expected miss fraction of "
                + String.format(Locale.ROOT, "%.2f", expectedMissFraction(s)) + " (1 - cache/data, a prior for uniform reads)");
      }
      u.add("dlc load: the plugin counts the node's chunk-cache misses less the chunks compactions read, as client"
          + " reads (its share by the table's reads)");
    }
    u.add("stall: Cassandra reports no write-stall time (blocked memtable writes are not counted)");
    if (s.directReads()) {
      u.add("direct-io: Cassandra 5.0.9 has no O_DIRECT reads of SSTables"
          + (cgroupProblem == null ? "; its page cache is bounded by the node's memory cgroup instead" : ""));
    }
    if (cgroupProblem != null) {
      u.add("node-page-cache-bytes=" + s.nodePageCacheBytes() + ": the node's page cache is unbounded ("
          + cgroupProblem + "), so chunk-cache misses may be page-cache hits");
    }
    s.seekDelayUnhonoured("cassandra").ifPresent(u::add);
    s.backgroundThreadsUnhonoured("cassandra").ifPresent(u::add);
    return List.copyOf(u);
  }

  /**
   * The bucket size: the most records per partition that keep Cassandra's chunks as small as a
   * single record's partition allows, and at least 8 KiB (7 records of 1 KiB values: 8 KiB chunks;
   * 8 records already give 16 KiB), and partitions at most 1/64 of an SSTable.
   */
  static int defaultBucketRecords(int valueBytes, long targetFileBytes) {
    int target = Math.max(8 << 10, chunkBytes(partitionBytes(1, valueBytes)));
    long maxPartition = Math.max(partitionBytes(1, valueBytes), targetFileBytes / 64);
    int n = 1;
    while (n < 1 << 16 && chunkBytes(partitionBytes(n + 1, valueBytes)) <= target
        && partitionBytes(n + 1, valueBytes) <= maxPartition) {
      n++;
    }
    return n;
  }

  /**
   * A partition's serialized size (BIG format): key length, key and deletion time (22 bytes) plus
   * an end marker, and per row about 21 bytes besides the value (flags, the bigint clustering,
   * row size, timestamp, cell flags and value length).
   */
  static long partitionBytes(int records, int valueBytes) {
    return 23 + (long) records * (valueBytes + 21);
  }

  /**
   * Cassandra's chunk size for an uncompressed SSTable whose partitions have this size: the 95th
   * percentile of its partition-size histogram (the bucket's upper bound) through the SSD
   * disk-optimization strategy, then rounded down to a power of two for the chunk cache.
   */
  static int chunkBytes(long partitionBytes) {
    // EstimatedHistogram.percentile returns the bucket's upper bound; the bounds grow by 1.2.
    long bound = 1;
    while (bound < partitionBytes) {
      long next = Math.round(bound * 1.2);
      bound = next == bound ? next + 1 : next;
    }
    // SsdDiskOptimizationStrategy.bufferSize with disk_optimization_page_cross_chance 0.1.
    long size = bound;
    if ((size % 4096) / 4096.0 - 0.1 > -1e-16) {
      size += 4096;
    }
    size = Math.min((size + 4095) & ~4095L, 1 << 16);
    // DiskOptimizationStrategy.roundForCaching, rounding down (file_cache_round_up false on ssd).
    return (int) Math.max(4096, Math.min(1 << 16, Long.highestOneBit(size)));
  }
}

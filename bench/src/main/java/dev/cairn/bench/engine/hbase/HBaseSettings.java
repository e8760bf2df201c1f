package dev.cairn.bench.engine.hbase;

import dev.cairn.bench.engine.EngineSettings;
import dev.cairn.bench.engine.hbase.HBaseEngine.Variant;
import dev.cairn.bench.engine.node.KeyValueProperty;
import dev.cairn.bench.workload.Keys;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How the runner's common settings ({@link EngineSettings}) map onto an HBase server and its
 * table, for the four HBase engines: the server's heap, block cache and memstore, each variant's
 * table {@code CONFIGURATION} (the only difference between them), and the settings that cannot be
 * honoured. Pure: docs/benchmarks.md, "HBase engines", explains each choice; {@link HBaseEngine}
 * applies them.
 */
final class HBaseSettings {
  private static final long MIB = 1L << 20;

  static final String TABLE = "kv";
  static final String FAMILY = "f";
  static final long DEFAULT_HEAP_MIB = 1024;
  /** HBase's default share of the heap the block cache may take; the fixed size must stay below it. */
  static final double BLOCK_CACHE_HEAP_SHARE = 0.4;
  static final long MAX_DIRECT_MIB = 256;
  /** Periodic's share of gets (as {@code CairnTableEngine.PERIODIC_GET_FRACTION}). */
  static final double PERIODIC_GET_FRACTION = 0.7;

  static final String POLICY_KEY = "hbase.hstore.defaultengine.compactionpolicy.class";
  static final String CAIRN_POLICY = "dev.cairn.hbase.CairnCompactionPolicy";
  static final String ENGINE_KEY = "hbase.hstore.engine.class";
  static final String CAIRN_BUFFER_ENGINE = "dev.cairn.hbase.CairnBufferStoreEngine";
  static final String CACHE_COMPACTED_ON_WRITE = "hbase.rs.cachecompactedblocksonwrite";
  static final String CACHE_COMPACTED_ON_WRITE_THRESHOLD = "hbase.rs.cachecompactedblocksonwrite.threshold";
  static final String CACHE_ON_WRITE = "hbase.rs.cacheblocksonwrite";
  static final String INDEX_CACHE_ON_WRITE = "hfile.block.index.cacheonwrite";
  static final String BLOOM_CACHE_ON_WRITE = "hfile.block.bloom.cacheonwrite";
  static final String PREFETCH_ON_OPEN = "hbase.rs.prefetchblocksonopen";
  static final String IO_HIGH_LIMIT = "cairn.compaction.io.high.limit.mb";
  static final String IO_LOW_LIMIT = "cairn.compaction.io.low.limit.mb";

  private HBaseSettings() {}

  /**
   * The server: {@code -Dcairn.hbase.heapMb} (1,024) of heap, raised if the block cache would not
   * fit below HBase's 40% of it with 25% to spare; the block cache and memstore as the settings ask.
   */
  static HBaseServer.Settings serverSettings(EngineSettings s) {
    long heap = Long.getLong("cairn.hbase.heapMb", DEFAULT_HEAP_MIB) * MIB;
    long needed = (long) Math.ceil(s.blockCacheBytes() / BLOCK_CACHE_HEAP_SHARE * 1.25);
    if (heap < needed) {
      heap = (needed + MIB - 1) / MIB * MIB;
    }
    return new HBaseServer.Settings(heap, s.blockCacheBytes(), s.memtableBytes(), MAX_DIRECT_MIB * MIB,
        bloomErrorRate(s.bloomBitsPerKey()), s.nodePageCacheBytes(), s.compression(), true);
  }

  /** The false-positive rate of a Bloom filter with this many bits per key (0.63^bits: 10 bits, 1%). */
  static double bloomErrorRate(int bitsPerKey) {
    return Math.min(0.5, Math.max(0.0001, Math.pow(0.63, bitsPerKey)));
  }

  static HBaseClient.TableSpec tableSpec(Variant variant, EngineSettings s) {
    return new HBaseClient.TableSpec(TABLE, FAMILY, s.blockBytes(), s.memtableBytes(),
        HBaseCodecs.familyCompression(s.compression()), tableConfiguration(variant, s));
  }

  /**
   * The table's {@code CONFIGURATION}: empty for {@code hbase-default} (the default store engine
   * with {@code ExploringCompactionPolicy}), one HBase key for each of HBase's own remedies, all of
   * them at once for {@code hbase-best}, and
   * Cairn's policy (with its load limits for periodic) for {@code hbase-dlc}, Cairn's store
   * engine (HBase's policy, a compaction buffer) for {@code hbase-buffer}; plus {@code
   * -Dcairn.hbase.configuration.<variant>=key=value,...}.
   */
  static Map<String, String> tableConfiguration(Variant variant, EngineSettings s) {
    Map<String, String> c = new LinkedHashMap<>();
    switch (variant) {
      case DEFAULT -> { }
      case CACHE_ON_WRITE -> c.put(CACHE_COMPACTED_ON_WRITE, "true");
      case PREFETCH -> c.put(PREFETCH_ON_OPEN, "true");
      case BEST -> {
        // Every cache-keeping remedy HBase has (shared/notes/peers.md): flushed and compacted
        // blocks cached as written, index and Bloom blocks too, prefetch on open; compaction
        // output larger than the whole cache is not cached, since it could only evict itself.
        c.put(CACHE_ON_WRITE, "true");
        c.put(INDEX_CACHE_ON_WRITE, "true");
        c.put(BLOOM_CACHE_ON_WRITE, "true");
        c.put(CACHE_COMPACTED_ON_WRITE, "true");
        c.put(CACHE_COMPACTED_ON_WRITE_THRESHOLD, Long.toString(s.blockCacheBytes()));
        c.put(PREFETCH_ON_OPEN, "true");
      }
      case BUFFER -> c.put(ENGINE_KEY, CAIRN_BUFFER_ENGINE);
      case DLC -> {
        c.put(POLICY_KEY, CAIRN_POLICY);
        long[] limits = cairnIoLimitsMb(s);
        if (limits != null) {
          c.put(IO_HIGH_LIMIT, Long.toString(limits[0]));
          c.put(IO_LOW_LIMIT, Long.toString(limits[1]));
        }
      }
    }
    c.putAll(KeyValueProperty.read(configurationProperty(variant)));
    return c;
  }

  /** The system property that overrides or adds table configuration of {@code variant}. */
  static String configurationProperty(Variant variant) {
    return "cairn.hbase.configuration." + variant.propertySuffix();
  }

  /**
   * Cairn's load limits for periodic, or null for other workloads (the plugin's defaults, as
   * {@code cairn-table+dlc} keeps DLC's). The plugin charges each client block-cache miss one
   * block ({@code missCachingCount} × the family's block size), so the rule of {@code
   * cairn-table+dlc} (Eq. 3: high at 60% of a high phase's estimate, low at twice a low phase's)
   * is applied to the misses a phase is expected to make: gets × the share of the data the cache
   * cannot hold ({@code 1 - cache / data}, at least 5%), a prior for uniform reads. Whole MB/s.
   */
  static long[] cairnIoLimitsMb(EngineSettings s) {
    if (s.offeredHighOps() <= 0) {
      return null;
    }
    double perGet = PERIODIC_GET_FRACTION * expectedMissFraction(s) * s.blockBytes();
    long high = Math.max(1, Math.round(0.6 * s.offeredHighOps() * perGet / 1e6));
    long low = Math.max(0, Math.min(high - 1, Math.round(2 * s.offeredLowOps() * perGet / 1e6)));
    return new long[] {high, low};
  }

  static double expectedMissFraction(EngineSettings s) {
    double data = (double) s.records() * (Keys.KEY_BYTES + s.valueBytes());
    return data <= 0 ? 1 : Math.min(1, Math.max(0.05, 1 - s.blockCacheBytes() / data));
  }

  static List<String> unhonoured(Variant variant, EngineSettings s, HBaseServer.Settings n, String cgroupProblem) {
    List<String> u = new ArrayList<>();
    u.add("block cache: HBase's LRU cache holds index and Bloom blocks beside data blocks, keeps a quarter of"
        + " itself for in-memory families (hbase:meta) and starts evicting at 99% of its size; hits and misses"
        + " are the region server's data-block lookups less those of reads that do not cache (compactions)");
    u.add(String.format(Locale.ROOT, "memtable-bytes=%d: MEMSTORE_FLUSHSIZE, which HBase compares with the"
        + " memstore's heap size (cells plus their index overhead), so a flush holds somewhat fewer bytes of"
        + " records", s.memtableBytes()));
    u.add("bloom-bits-per-key=" + s.bloomBitsPerKey() + ": BLOOMFILTER ROW sized by HBase from"
        + String.format(Locale.ROOT, " io.storefile.bloom.error.rate=%.4f", n.bloomErrorRate())
        + " (compound Bloom chunks of 128 KiB, looked up through the block cache)");
    u.add("base-level-bytes, level-size-ratio, target-file-bytes: HBase's default store has no levels and"
        + " writes each compaction into one file; its ExploringCompactionPolicy picks files by size ratio 1.2,"
        + " 3 to 10 at a time");
    u.add("stall: updatesBlockedTime (the time updates waited for a memstore over its blocking size); flushes"
        + " delayed by too many store files (blockingStoreFiles 16) are counted from node.log in node-summary.txt");
    if (variant == Variant.DLC) {
      long[] limits = cairnIoLimitsMb(s);
      Map<String, String> set = KeyValueProperty.read(configurationProperty(variant));
      if (set.containsKey(IO_HIGH_LIMIT) || set.containsKey(IO_LOW_LIMIT)) {
        Map<String, String> c = tableConfiguration(variant, s);
        u.add("dlc limits: io.high.limit.mb=" + c.getOrDefault(IO_HIGH_LIMIT, "the plugin's default")
            + ", io.low.limit.mb=" + c.getOrDefault(IO_LOW_LIMIT, "the plugin's default") + " set by -D"
            + configurationProperty(variant));
      } else {
        u.add(limits == null
            ? "dlc limits: the plugin's defaults (cairn.compaction.io.high.limit.mb / io.low.limit.mb), as"
                + " cairn-table+dlc keeps DLC's outside periodic"
            : "dlc limits: io.high.limit.mb=" + limits[0] + ", io.low.limit.mb=" + limits[1] + " from the offered"
                + " rates, charging each get a " + s.blockBytes() + "-byte block times an expected miss fraction of "
                + String.format(Locale.ROOT, "%.2f", expectedMissFraction(s)) + " (1 - cache/data)");
      }
    }
    if (s.directReads()) {
      u.add("direct-io: HBase reads store files through Hadoop's local file system, never with O_DIRECT"
          + (cgroupProblem == null ? "; its page cache is bounded by the server's memory cgroup instead" : ""));
    }
    if (cgroupProblem != null) {
      u.add("node-page-cache-bytes=" + s.nodePageCacheBytes() + ": the server's page cache is unbounded ("
          + cgroupProblem + "), so block-cache misses may be page-cache hits");
    }
    if (n.heapBytes() != Long.getLong("cairn.hbase.heapMb", DEFAULT_HEAP_MIB) * MIB) {
      u.add("heap raised to " + n.heapBytes() / MIB + " MiB so that the block cache fits below HBase's 40%");
    }
    s.seekDelayUnhonoured("hbase").ifPresent(u::add);
    s.backgroundThreadsUnhonoured("hbase").ifPresent(u::add);
    return List.copyOf(u);
  }
}

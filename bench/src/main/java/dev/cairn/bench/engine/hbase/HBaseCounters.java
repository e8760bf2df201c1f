package dev.cairn.bench.engine.hbase;

import dev.cairn.bench.engine.EngineMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The runner's figures from the region server's metrics ({@code
 * Hadoop:service=HBase,name=RegionServer,sub=Server} and {@code sub=Tables}). Pure.
 *
 * <p><b>The hit ratio counts client reads' data-block lookups</b>, as for every engine
 * (docs/benchmarks.md, "The hit ratio"). HBase counts its lookups two ways, never both at once:
 * by whether the read caches what it misses ({@code blockCacheHitCachingCount}: client gets and
 * scans, their Bloom and index blocks included; compactions read with caching off), and by the
 * block type the reader expected ({@code blockCacheBloomChunkHitCount}, ... , {@code
 * blockCacheDataHitCount}). The type is known only where a read looks a block up through the
 * index: a scan's following blocks ({@code readNextDataBlock}) and a compaction's are untyped, so
 * the data counts miss most of a scan's blocks. Client reads' data lookups are therefore the
 * caching lookups less the typed non-data ones (Bloom chunks, index, meta, file info, trailer),
 * which only client reads make (a compaction reads no Bloom filter and its files' root index is
 * in memory). Prefetching on open and caching on write update no counter.
 */
final class HBaseCounters {
  /** Block types other than data, as the region server names their counters. */
  static final List<String> NON_DATA_TYPES = List.of("LeafIndex", "BloomChunk", "Meta", "RootIndex",
      "IntermediateIndex", "FileInfo", "GeneralBloomMeta", "DeleteFamilyBloom", "Trailer");
  static final String[] CACHE_ATTRIBUTES = cacheAttributes();

  private HBaseCounters() {}

  private static String[] cacheAttributes() {
    List<String> names = new ArrayList<>(List.of("blockCacheHitCachingCount", "blockCacheMissCachingCount"));
    for (String type : NON_DATA_TYPES) {
      names.add("blockCache" + type + "HitCount");
      names.add("blockCache" + type + "MissCount");
    }
    return names.toArray(String[]::new);
  }

  /** Client data-block hits, or {@link EngineMetrics#UNAVAILABLE} when an attribute is missing. */
  static long userDataHits(Map<String, Object> server) {
    return userData(server, "blockCacheHitCachingCount", "HitCount");
  }

  /** Client data-block misses, or {@link EngineMetrics#UNAVAILABLE} when an attribute is missing. */
  static long userDataMisses(Map<String, Object> server) {
    return userData(server, "blockCacheMissCachingCount", "MissCount");
  }

  private static long userData(Map<String, Object> server, String caching, String suffix) {
    long lookups = number(server.get(caching));
    if (!EngineMetrics.available(lookups)) {
      return EngineMetrics.UNAVAILABLE;
    }
    for (String type : NON_DATA_TYPES) {
      long n = number(server.get("blockCache" + type + suffix));
      if (!EngineMetrics.available(n)) {
        return EngineMetrics.UNAVAILABLE;
      }
      lookups -= n;
    }
    return Math.max(0, lookups);
  }

  /** The name of a table's attribute in the {@code sub=Tables} bean (namespace {@code default}). */
  static String tableAttribute(String table, String metric) {
    return "Namespace_default_table_" + table + "_metric_" + metric;
  }

  static long number(Object v) {
    return v instanceof Number n ? n.longValue() : EngineMetrics.UNAVAILABLE;
  }
}

package dev.cairn.bench.engine;

/**
 * Cumulative counters of an engine since it was opened. A counter the engine cannot report is
 * {@link #UNAVAILABLE}; the runner turns derived figures of unavailable counters into NaN (empty
 * cells in the CSV, null in JSON).
 *
 * @param blockCacheHits data-block lookups served by the block cache
 * @param blockCacheMisses data-block lookups that went to a file
 * @param deviceBytesWritten bytes written to files: WAL, flushes, compactions, manifest
 * @param compactionBytesWritten the part of {@code deviceBytesWritten} written by compactions
 * @param stallMicros time writes were delayed or stopped by the engine's write throttling
 */
public record EngineMetrics(
    long blockCacheHits,
    long blockCacheMisses,
    long deviceBytesWritten,
    long compactionBytesWritten,
    long stallMicros) {
  public static final long UNAVAILABLE = -1;

  public static boolean available(long counter) {
    return counter != UNAVAILABLE;
  }

  /** Hits over lookups between {@code earlier} and this snapshot; NaN if unavailable or idle. */
  public double hitRatioSince(EngineMetrics earlier) {
    if (!available(blockCacheHits) || !available(blockCacheMisses)) {
      return Double.NaN;
    }
    long hits = blockCacheHits - earlier.blockCacheHits;
    long lookups = hits + blockCacheMisses - earlier.blockCacheMisses;
    return lookups == 0 ? Double.NaN : (double) hits / lookups;
  }
}

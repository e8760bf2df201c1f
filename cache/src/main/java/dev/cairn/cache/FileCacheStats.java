package dev.cairn.cache;

/**
 * Block-cache counters of one table file at one point in time.
 *
 * @param fileNumber the table file
 * @param hits lookups of this file's blocks that found the block (only grows)
 * @param misses lookups of this file's blocks that did not (only grows)
 * @param cachedBlocks blocks of this file now in the cache
 */
public record FileCacheStats(long fileNumber, long hits, long misses, long cachedBlocks) {
  public double hitRatio() {
    long total = hits + misses;
    return total == 0 ? 0.0 : (double) hits / total;
  }
}

package dev.cairn.cache;

/**
 * A point-in-time copy of block-cache counters; all counters only grow, so a caller takes
 * differences between two snapshots for per-interval figures (DLC's load model reads
 * {@code inserts} per interval).
 *
 * @param hits lookups that found the block
 * @param misses lookups that did not
 * @param inserts blocks added to the cache
 * @param evictions blocks removed by capacity pressure or file deletion
 * @param usedBytes bytes of the blocks now cached
 * @param capacityBytes the configured capacity
 * @param blockCount blocks now cached
 * @param pinnedBytes off-heap bytes allocated, including evicted blocks still held by readers
 * @param evictedWarm of {@code evictions}, blocks capacity pressure evicted though they were read
 *     or inserted less than a capacity's worth of inserts ago ({@link BlockCache#isWarm}). Under
 *     W-TinyLFU these are mostly recent blocks turned away in favour of frequent ones; under LRU,
 *     blocks pushed out by reads of others (LRU's recency counts reads, this clock only inserts)
 * @param windowBytes the share of the capacity the policy keeps for new blocks now, before they
 *     face admission: under {@link EvictionPolicy#TINY_LFU_CLOCK} it moves with what is asked for
 *     again after leaving; 0 for the policies that do not say (LRU has none, Caffeine keeps its own)
 */
public record CacheStats(
    long hits,
    long misses,
    long inserts,
    long evictions,
    long usedBytes,
    long capacityBytes,
    long blockCount,
    long pinnedBytes,
    long evictedWarm,
    long windowBytes) {

  public double hitRatio() {
    long total = hits + misses;
    return total == 0 ? 0.0 : (double) hits / total;
  }
}

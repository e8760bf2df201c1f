package dev.cairn.cache;

/**
 * How a sharded {@link BlockTable} splits its capacity (RocksDB's rule): the shard count is the
 * largest power of two, at most a maximum, that leaves each shard at least a minimum, so a small
 * cache is one exact policy and a large one spreads its lock. The first shards take the
 * remainder, so the shares sum to the capacity and the last share is the smallest.
 */
final class ShardSizes {
  private ShardSizes() {}

  /** The number of shards for {@code capacityBytes}: a power of two, 1 if the cache is small. */
  static int count(long capacityBytes, int maxShards, long minShardBytes) {
    int count = 1;
    while (count < maxShards && capacityBytes / (count * 2L) >= minShardBytes) {
      count *= 2;
    }
    return count;
  }

  /** Shard {@code shard}'s share of {@code capacityBytes} split {@code count} ways. */
  static long share(long capacityBytes, int count, int shard) {
    return capacityBytes / count + (shard < capacityBytes % count ? 1 : 0);
  }

  /** The smallest share, the last shard's: the largest block every shard can hold. */
  static long smallestShare(long capacityBytes, int count) {
    return capacityBytes / count;
  }
}

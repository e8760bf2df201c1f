package dev.cairn.compaction.dlc;

/**
 * Where the load model reads the client's activity: cumulative counters since some fixed start,
 * which the model differences per interval. The engine reads its block cache and its operation
 * counters; tests script the totals.
 */
@FunctionalInterface
public interface LoadCounters {
  /** The current totals; every field only grows (a decrease is read as no activity). */
  Sample sample();

  /**
   * Cumulative client activity.
   *
   * @param blockCacheInserts blocks added to the block cache (Eq. 6: each is a block a client
   *     read missed and fetched from the device; compaction reads never fill the cache)
   * @param gets point reads served (Eq. 3)
   * @param scans range scans started (Eq. 3)
   */
  record Sample(long blockCacheInserts, long gets, long scans) {
    public static final Sample ZERO = new Sample(0, 0, 0);
  }
}

package dev.cairn.compaction.dlc;

/**
 * Eq. 6's "blocks added to the cache" for one table when the cache is shared by every table of
 * the process (Cassandra's chunk cache is node-wide, and so are its miss counters). Each
 * interval's misses are split among the tables in proportion to their reads in that interval: a
 * table that served 30% of the node's reads is charged 30% of its misses. That is exact when
 * every table misses at the same rate and errs towards the average otherwise; it never charges a
 * table that read nothing, and never charges more than the node missed.
 *
 * <p>Fed cumulative totals, it keeps a cumulative attributed count, so a {@link LoadModel} can
 * difference it like any other counter ({@link LoadCounters.Sample#blockCacheInserts}). Totals
 * that go back (a counter reset) count as no activity for that interval. Thread-safe.
 */
public final class SharedCacheMisses {
  private boolean hasBaseline;
  private long lastNodeMisses;
  private long lastTableReads;
  private long lastAllReads;
  private double attributed;

  /**
   * Observes the current totals and returns the misses attributed to the table so far.
   *
   * @param nodeMisses cache misses of the whole process since some fixed start
   * @param tableReads reads this table served since the same start
   * @param allReads reads all tables sharing the cache served (including this one)
   */
  public synchronized long observe(long nodeMisses, long tableReads, long allReads) {
    if (hasBaseline) {
      long misses = Math.max(0, nodeMisses - lastNodeMisses);
      long table = Math.max(0, tableReads - lastTableReads);
      long all = Math.max(0, allReads - lastAllReads);
      attributed += share(misses, table, all);
    }
    hasBaseline = true;
    lastNodeMisses = nodeMisses;
    lastTableReads = tableReads;
    lastAllReads = allReads;
    return (long) attributed;
  }

  /** One interval's share: {@code misses × table / all}, 0 with no reads, at most {@code misses}. */
  static double share(long misses, long tableReads, long allReads) {
    if (tableReads == 0 || allReads == 0) {
      return 0;
    }
    return misses * Math.min(1.0, (double) tableReads / allReads);
  }
}

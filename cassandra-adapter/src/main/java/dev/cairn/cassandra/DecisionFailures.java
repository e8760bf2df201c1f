package dev.cairn.cassandra;

import org.apache.cassandra.db.ColumnFamilyStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The decisions of one strategy instance that threw, each answered by the choice of the strategy
 * Cairn refines (LCS's or UCS's): the first is logged at ERROR with its stack, later ones at
 * DEBUG, so that a fault that persists is reported once, not at every compaction check.
 */
final class DecisionFailures {
  private static final Logger logger = LoggerFactory.getLogger(DecisionFailures.class);

  private final String table;
  private final String fallback;
  // Guarded by this.
  private long count;

  DecisionFailures(ColumnFamilyStore cfs, String fallback) {
    this.table = cfs.getKeyspaceName() + "." + cfs.getTableName();
    this.fallback = fallback;
  }

  /** Records {@code e}; returns what the table's LastDecision shows for it. */
  synchronized String record(Throwable e) {
    if (count++ == 0) {
      logger.error("{}: Cairn's decision failed; {}'s choice runs instead (logged once, shown in the table's"
          + " LastDecision)", table, fallback, e);
    } else {
      logger.debug("{}: Cairn's decision failed again", table, e);
    }
    return "FAILED: " + e;
  }
}

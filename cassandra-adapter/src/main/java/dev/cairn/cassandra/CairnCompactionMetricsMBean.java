package dev.cairn.cassandra;

/**
 * Per-table figures of {@link CairnCompactionStrategy} over JMX, as
 * {@code dev.cairn.cassandra:type=CairnCompaction,keyspace=<ks>,table=<table>}. A table has one
 * strategy instance per repaired / unrepaired / pending-repair set and disk; counts are summed
 * over them, the load and the delay are the highest of them.
 */
public interface CairnCompactionMetricsMBean {
  /** HIGH or LOW: the load model's class (section 3.2 of DLC). */
  String getLoadClass();

  /** The client's estimated device read bandwidth for this table, bytes per second. */
  double getClientReadBytesPerSecond();

  /** L0 compactions held back under high load (each counted once per new L0 shape). */
  long getDelayedCompactions();

  /** Bursty runs: "resume part" (fresh L0 SSTables merged within L0) and "resume full". */
  long getBurstyRuns();

  /** Delays ended by a hard bound (max_delay_seconds). */
  long getReleasesAtBound();

  /** Compactions whose hot SSTables were spared, by a colder choice or a postponement. */
  long getHotInputsSpared();

  /** How long the L0 compaction now delayed has waited, milliseconds; 0 if none. */
  long getCurrentDelayMillis();

  /** How long the longest postponement for hot SSTables has lasted, milliseconds; 0 if none. */
  long getCurrentHotPostponeMillis();

  /** The pending compactions the strategy reports, delayed ones included. */
  int getEstimatedRemainingTasks();

  /** Compactions the strategy handed to Cassandra (0 in a dry run, where LCS's run). */
  long getCompactionsStarted();

  /**
   * Strategy instances reporting here: one per repaired and unrepaired set and disk, and one per
   * pending repair session's set that existed when the table's strategies last started (Cassandra
   * starts no instance it makes for a session later; those neither tick nor report). A table's
   * strategies start with the node, and again on a change of its compaction or disk boundaries.
   */
  int getInstances();

  /** The last decision and its reason. */
  String getLastDecision();

  /** Whether the strategy only logs its decisions while LCS's run. */
  boolean isDryRun();

  /** Compactions whose output had recently read chunks read into the chunk cache as it went live. */
  long getWarmedCompactions();

  /** Chunks warming read into the chunk cache. */
  long getWarmedChunks();

  /** Bytes warming read into the chunk cache. */
  long getWarmedBytes();

  /** Time spent warming, milliseconds. */
  long getWarmMillis();

  /** Compactions not warmed: warming off, no chunk cache, high load, nothing recently read, or a full queue. */
  long getWarmsSkipped();

  /** Recently read chunks' bytes the per-compaction budget left unread. */
  long getWarmLeftOutBytes();

  /**
   * Reads of warmed outputs since they went live: what warming could have served at most.
   * Cassandra does not count chunk-cache hits per chunk, so hits on warmed chunks are not known.
   */
  long getWarmedOutputReads();

  /** The last warming or skip and its reason. */
  String getLastWarm();
}

package dev.cairn.hbase;

/**
 * Per-store figures of {@link CairnCompactionPolicy}, registered as {@code
 * dev.cairn.hbase:type=CompactionPolicy,table=...,region=...,family=...} on the region server's
 * platform MBean server (which its {@code /jmx} page also serves).
 */
public interface CairnPolicyMetricsMBean {
  /** LOW or HIGH: the region server's load class (DLC's load model on block-cache misses). */
  String getLoadClass();

  /** The clients' device reads the load model estimated over its last interval, bytes/s. */
  double getClientReadBytesPerSecond();

  /** Compactions held back under high load (counted once per set of store files). */
  long getDelayedCompactions();

  /** Part runs: fresh flushes merged into one under high load. */
  long getPartRuns();

  /** Compactions released at the file or the time bound. */
  long getReleasesAtBound();

  /** Releases whose window was colder than HBase's own selection. */
  long getColderChoices();

  /** Cached bytes those colder windows left in the cache. */
  long getSparedCachedBytes();

  /** How long the compaction held back now has waited, ms (0: none). */
  long getCurrentDelayMillis();

  /**
   * Share of the store's file bytes whose blocks are in the block cache, as of the server's last
   * cache walk (reading it asks for a walk at the next load tick).
   */
  double getCachedFraction();

  /** Walks of the whole block cache the region server's load ticker has made (the picture's cost). */
  long getCacheWalks();

  /** The last decision and its reason. */
  String getLastDecision();

  /**
   * Selections the policy has decided (each HBase selection once the server has a load picture);
   * {@link #getLastDecision} is the latest.
   */
  long getDecisions();

  /**
   * Requests for a held-back compaction the load ticker has made to HBase (when the load turns
   * low, and once per delay bound while it stays held). HBase may ignore one: the compaction
   * switch, the table's compaction flag.
   */
  long getDelayedCompactionRequests();

  /**
   * Selections whose Cairn decision failed with an exception (logged at the first); HBase's own
   * selection ran for each. Above 0 is a fault in Cairn to report.
   */
  long getDecisionFailures();

  /** Whether the policy only decides and counts while HBase's own selection runs. */
  boolean isDryRun();
}

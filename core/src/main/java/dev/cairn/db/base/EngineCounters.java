package dev.cairn.db.base;

import java.util.concurrent.atomic.LongAdder;

/** The engine's own counters (I/O bytes live in {@link dev.cairn.fs.IoStats}). Thread-safe. */
public final class EngineCounters {
  private final LongAdder userBytesWritten = new LongAdder();
  private final LongAdder flushes = new LongAdder();
  private final LongAdder compactions = new LongAdder();
  private final LongAdder trivialMoves = new LongAdder();
  private final LongAdder levelMoves = new LongAdder();
  private final LongAdder compactionNanos = new LongAdder();
  private final LatencyRecorder getLatency = new LatencyRecorder();
  private final LatencyRecorder putLatency = new LatencyRecorder();
  private final LatencyRecorder scanLatency = new LatencyRecorder();
  /** Bytes of obsolete tables kept on disk for a later deletion batch (lazy deletion). */
  private final java.util.concurrent.atomic.AtomicLong obsoleteTableBytes = new java.util.concurrent.atomic.AtomicLong();

  /** Why a writer waited: the pace L0's slowdown trigger sets, L0 at its stop trigger, or no memtable free. */
  public enum StallCause { SLOWDOWN, L0_STOP, MEMTABLE_STOP }

  /** Data blocks written into each level since open: their bytes as built and as stored. */
  private final LongAdder[] rawDataBytesByLevel = adders(dev.cairn.Options.MAX_LEVELS);
  private final LongAdder[] storedDataBytesByLevel = adders(dev.cairn.Options.MAX_LEVELS);
  /** Per cause, the time writers waited and how often; the totals in {@link dev.cairn.Stats} are their sums. */
  private final LongAdder[] stallNanosByCause = {new LongAdder(), new LongAdder(), new LongAdder()};
  private final LongAdder[] stallsByCause = {new LongAdder(), new LongAdder(), new LongAdder()};

  private static LongAdder[] adders(int n) {
    LongAdder[] a = new LongAdder[n];
    for (int i = 0; i < n; i++) {
      a[i] = new LongAdder();
    }
    return a;
  }

  /** Values compactions offered to the user's filter that it removed, and that it changed. */
  private final LongAdder filterRemoved = new LongAdder();
  private final LongAdder filterChanged = new LongAdder();
  /** Merge operands compactions merged into values or combined. */
  private final LongAdder mergedOperands = new LongAdder();
  /** Tables deleted whole under range tombstones, and their bytes. */
  private final LongAdder deletedTables = new LongAdder();
  private final LongAdder deletedBytes = new LongAdder();
  /** Compactions discarded because a snapshot taken while they ran could see a value they filtered. */
  private final LongAdder filteredCompactionsDiscarded = new LongAdder();

  public void filteredCompactionDiscarded() {
    filteredCompactionsDiscarded.increment();
  }

  public long filteredCompactionsDiscarded() {
    return filteredCompactionsDiscarded.sum();
  }

  /** An installed compaction's decisions: values the user's filter removed and changed, operands merged. */
  public void keepDecisions(long removed, long changed, long merged) {
    filterRemoved.add(removed);
    filterChanged.add(changed);
    mergedOperands.add(merged);
  }

  public long mergedOperands() {
    return mergedOperands.sum();
  }

  /** An installed delete-only compaction: {@code tables} of {@code bytes} deleted without a rewrite. */
  public void deletedWithoutRewrite(long tables, long bytes) {
    deletedTables.add(tables);
    deletedBytes.add(bytes);
  }

  public long deletedTables() {
    return deletedTables.sum();
  }

  public long deletedBytes() {
    return deletedBytes.sum();
  }

  public long filterRemoved() {
    return filterRemoved.sum();
  }

  public long filterChanged() {
    return filterChanged.sum();
  }

  /** Counts data blocks of {@code raw} bytes as built, {@code stored} as stored, written into {@code level}. */
  public void dataBlocksWritten(int level, long raw, long stored) {
    rawDataBytesByLevel[level].add(raw);
    storedDataBytesByLevel[level].add(stored);
  }

  /** Bytes as built of the data blocks written into {@code level} since open. */
  public long rawDataBytesWritten(int level) {
    return rawDataBytesByLevel[level].sum();
  }

  /** Bytes as stored (after compression) of the data blocks written into {@code level} since open. */
  public long storedDataBytesWritten(int level) {
    return storedDataBytesByLevel[level].sum();
  }

  public void recordStall(long startNanos, StallCause cause) {
    recordStallTime(startNanos, cause, true);
  }

  /** Adds the time since {@code startNanos} to {@code cause}'s, and counts a stall if {@code newStall}. */
  public void recordStallTime(long startNanos, StallCause cause, boolean newStall) {
    stallNanosByCause[cause.ordinal()].add(System.nanoTime() - startNanos);
    if (newStall) {
      stallsByCause[cause.ordinal()].increment();
    }
  }

  public long stallNanos(StallCause cause) {
    return stallNanosByCause[cause.ordinal()].sum();
  }

  public long stalls(StallCause cause) {
    return stallsByCause[cause.ordinal()].sum();
  }

  public java.util.concurrent.atomic.AtomicLong obsoleteTableBytes() {
    return obsoleteTableBytes;
  }

  public LongAdder userBytesWritten() {
    return userBytesWritten;
  }

  public LongAdder flushes() {
    return flushes;
  }

  public LongAdder compactions() {
    return compactions;
  }

  public LongAdder trivialMoves() {
    return trivialMoves;
  }

  public LongAdder levelMoves() {
    return levelMoves;
  }

  public LongAdder compactionNanos() {
    return compactionNanos;
  }

  public LatencyRecorder getLatency() {
    return getLatency;
  }

  public LatencyRecorder putLatency() {
    return putLatency;
  }

  public LatencyRecorder scanLatency() {
    return scanLatency;
  }
}

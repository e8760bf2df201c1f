package dev.cairn.db.buffer;

import dev.cairn.compaction.buffer.BufferConfig;
import dev.cairn.compaction.buffer.MissCost;
import dev.cairn.db.read.PointReads;

/**
 * The compaction buffer's running estimate of what a point read's block cache miss costs, fed
 * window by window from the block reads {@link PointReads} has timed, and the space bound that
 * estimate gives (docs/compaction.md, "What a miss costs"; the rule itself is {@link MissCost}).
 * Only data blocks count: a table opened on a table-cache miss reads its index and filter too,
 * which a miss then costs on top (docs/operations.md: a table cache too small for the tree).
 * Guarded by the engine mutex.
 */
final class MissCostMeter {
  private final PointReads reads;
  private final BufferConfig config;
  private MissCost cost = MissCost.UNKNOWN;
  /** Where the current window began: the reads' totals at the last sample that counted. */
  private long blockReadsAtSample;
  private long nanosAtSample;

  MissCostMeter(PointReads reads, BufferConfig config) {
    this.reads = reads;
    this.config = config;
  }

  /**
   * Requires: mutex held. Brings the estimate up to date with the point reads timed since the
   * last sample (a window too short to count is left to grow). The two totals are read one after
   * the other while reads go on, so a window may hold one read's blocks without its time or the
   * reverse; the next window has the difference, and the totals stay right.
   */
  void sample() {
    long blockReads = reads.blockReadsTotal();
    long nanos = reads.blockReadNanos();
    MissCost next = cost.afterWindow(blockReads - blockReadsAtSample, nanos - nanosAtSample);
    if (next != cost) { // a window long enough to count: the next one starts here
      cost = next;
      blockReadsAtSample = blockReads;
      nanosAtSample = nanos;
    }
  }

  /** Requires: mutex held. The estimate as of the last sample. */
  MissCost cost() {
    return cost;
  }

  /**
   * Requires: mutex held. The space bound as of the last sample, as a fraction of the levels'
   * bytes: the configured one scaled by what a miss costs ({@link MissCost#boundFraction}).
   */
  double boundFraction() {
    return cost.boundFraction(config.maxSpaceFraction(), config.fullBoundMissMicros());
  }
}

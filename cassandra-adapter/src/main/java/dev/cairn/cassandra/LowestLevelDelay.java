package dev.cairn.cassandra;

/**
 * DLC's delay of the lowest level's compactions under high load, with its two hard bounds, as a
 * decision per ask: the Unified Compaction Strategy's level 0 plays DLC's L0. The same bounds as
 * DLC's scheduler on LCS ({@code max_l0_sstables}, {@code max_delay_seconds}), without its bursty
 * part runs; the SSTable bound counts level 0's overlap (the SSTables a read of one key may have
 * to consult, which is every L0 SSTable on LCS, where the bound counts them all; UCS cuts a large
 * flush into shards that do not overlap). Pure: the caller supplies the clock and the facts; not
 * thread-safe (the strategy calls it under its own lock).
 */
final class LowestLevelDelay {
  /** What to do with the compaction UCS would run now. */
  enum Verdict {
    /** Let it run: it is not the lowest level's, the load is low, or the delay is off. */
    RUN,
    /** Hold it back: the load is high and neither bound is reached. */
    DELAY,
    /** Let it run although the load is high: a bound was reached. */
    RELEASE_AT_BOUND
  }

  private final int maxLevel0Overlap;
  private final long maxDelayNanos;

  private long delayedSince = -1;
  private long delayed;
  private long releasesAtBound;

  LowestLevelDelay(int maxLevel0Overlap, long maxDelayNanos) {
    if (maxLevel0Overlap < 1 || maxDelayNanos < 0) {
      throw new IllegalArgumentException("bad bounds: " + maxLevel0Overlap + " SSTables, " + maxDelayNanos + " ns");
    }
    this.maxLevel0Overlap = maxLevel0Overlap;
    this.maxDelayNanos = maxDelayNanos;
  }

  /**
   * @param level0Due whether UCS's next compaction is of its level 0
   * @param level0Overlap the most level-0 SSTables that overlap at one key now
   * @param highLoad whether the load model classes the load as high
   * @param delayOn whether the table delays at all ({@code delay_l0})
   * @param nowNanos the clock
   */
  Verdict decide(boolean level0Due, int level0Overlap, boolean highLoad, boolean delayOn, long nowNanos) {
    if (!level0Due || !highLoad || !delayOn) {
      delayedSince = -1;
      return Verdict.RUN;
    }
    boolean overTime = delayedSince >= 0 && nowNanos - delayedSince >= maxDelayNanos;
    if (level0Overlap >= maxLevel0Overlap || overTime) {
      delayedSince = -1;
      releasesAtBound++;
      return Verdict.RELEASE_AT_BOUND;
    }
    if (delayedSince < 0) {
      delayedSince = nowNanos;
      delayed++;
    }
    return Verdict.DELAY;
  }

  /** Whether a compaction is being held back now. */
  boolean delaying() {
    return delayedSince >= 0;
  }

  /** How long the compaction held back now has waited; 0 if none. */
  long currentDelayNanos(long nowNanos) {
    return delayedSince < 0 ? 0 : nowNanos - delayedSince;
  }

  /** Whether the one held back now has reached the time bound (the ticker then asks again). */
  boolean overTime(long nowNanos) {
    return delayedSince >= 0 && nowNanos - delayedSince >= maxDelayNanos;
  }

  /** Delays begun: compactions held back, each counted once however often it was asked for. */
  long delayed() {
    return delayed;
  }

  long releasesAtBound() {
    return releasesAtBound;
  }
}

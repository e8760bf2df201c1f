package dev.cairn.db.write;

/**
 * How long a write group waits while L0 sits between its slowdown and stop triggers: RocksDB's
 * delayed write rate in place of LevelDB's fixed millisecond per write. Writes are paced to a
 * rate that falls as L0 nears the stop trigger ({@link #rateBytesPerSecond}), so they slow
 * smoothly long before they stop; a group sleeps only once the bytes written since the slowdown
 * began are a millisecond or more ahead of that rate, so most groups pass at once and a few
 * sleep about a millisecond (LevelDB slept every group, which held a load at one write per
 * millisecond whatever compaction could take; measured in docs/results/issue20).
 *
 * <p>Each group is charged the bytes of the group before it, as RocksDB does ({@code
 * DelayWrite(last_batch_group_size_)}): the leader decides before it gathers its own group.
 * Pure (the caller passes the time); not thread-safe: the write queue's leader calls it under the
 * engine mutex.
 */
final class WriteSlowdown {
  /** Debt below this is carried to the next group instead of slept (a sleep is ~this coarse). */
  static final long MIN_SLEEP_NANOS = 1_000_000;
  /** The slowest pace, as a fraction of the full rate, however close L0 is to the stop trigger. */
  static final double MIN_RATE_FRACTION = 1.0 / 16;

  private final long fullRateBytesPerSecond;
  private final int slowdownTrigger;
  private final int stopTrigger;
  /** When the bytes charged since the slowdown began would have been written at the pace; -1 when not slowing. */
  private long paidUntilNanos = -1;

  /**
   * @param fullRateBytesPerSecond the pace at {@code slowdownTrigger} L0 files
   * @param slowdownTrigger L0 files at which writes are paced
   * @param stopTrigger L0 files at which writes stop (the caller waits for compaction instead)
   */
  WriteSlowdown(long fullRateBytesPerSecond, int slowdownTrigger, int stopTrigger) {
    if (fullRateBytesPerSecond < 1 || slowdownTrigger < 1 || stopTrigger < slowdownTrigger) {
      throw new IllegalArgumentException("bad write slowdown: " + fullRateBytesPerSecond + " bytes/s, triggers "
          + slowdownTrigger + " / " + stopTrigger);
    }
    this.fullRateBytesPerSecond = fullRateBytesPerSecond;
    this.slowdownTrigger = slowdownTrigger;
    this.stopTrigger = stopTrigger;
  }

  /**
   * The pace with {@code l0Files} in L0: the full rate at the slowdown trigger, falling linearly
   * by a step per file towards the stop trigger, never below {@link #MIN_RATE_FRACTION} of it;
   * 0 outside the band (no pacing below it, a stop at or above the stop trigger).
   */
  double rateBytesPerSecond(int l0Files) {
    if (l0Files < slowdownTrigger || l0Files >= stopTrigger) {
      return 0;
    }
    double left = (double) (stopTrigger - l0Files) / (stopTrigger - slowdownTrigger);
    return fullRateBytesPerSecond * Math.max(MIN_RATE_FRACTION, left);
  }

  /**
   * Charges {@code bytes} (the previous group's) at L0's pace now; returns how long the group
   * must sleep first (0: go on, any debt carried). Below the slowdown trigger the debt is
   * forgotten. At or above the stop trigger nothing is charged: the caller stops instead.
   */
  long delayNanos(int l0Files, long bytes, long nowNanos) {
    double rate = rateBytesPerSecond(l0Files);
    if (rate == 0) {
      if (l0Files < slowdownTrigger) {
        paidUntilNanos = -1;
      }
      return 0;
    }
    long start = paidUntilNanos < 0 ? nowNanos : Math.max(paidUntilNanos, nowNanos);
    paidUntilNanos = start + (long) (bytes / rate * 1e9);
    long ahead = paidUntilNanos - nowNanos;
    return ahead >= MIN_SLEEP_NANOS ? ahead : 0;
  }
}

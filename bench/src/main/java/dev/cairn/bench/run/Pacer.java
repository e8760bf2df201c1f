package dev.cairn.bench.run;

import java.util.concurrent.locks.LockSupport;

/**
 * Token pacing for an open-loop worker: operation k is due at the sum of the intervals before
 * it, so a slow operation is followed by quicker ones and the offered rate holds on average. A
 * backlog older than one second is forgiven, so that an engine that stalled for ten seconds is
 * not then hit by ten seconds' worth of writes at once (the papers' clients do not queue).
 */
final class Pacer {
  private static final long MAX_BACKLOG_NANOS = 1_000_000_000L;

  private long nextDueNanos;

  Pacer(long startNanos) {
    this.nextDueNanos = startNanos;
  }

  /**
   * Waits until the next operation at {@code opsPerSecond} is due; returns false if
   * {@code stopAtNanos} comes first.
   */
  boolean awaitNext(double opsPerSecond, long stopAtNanos) {
    long now = System.nanoTime();
    if (now - nextDueNanos > MAX_BACKLOG_NANOS) {
      nextDueNanos = now - MAX_BACKLOG_NANOS;
    }
    while (now < nextDueNanos) {
      if (now >= stopAtNanos) {
        return false;
      }
      LockSupport.parkNanos(Math.min(nextDueNanos - now, 10_000_000L));
      now = System.nanoTime();
    }
    nextDueNanos += (long) (1e9 / opsPerSecond);
    return true;
  }
}

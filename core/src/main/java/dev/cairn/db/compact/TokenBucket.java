package dev.cairn.db.compact;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A token bucket for DLC's compaction throttle: {@code rate} permits (bytes) a second, with up
 * to one second of unused permits saved for a burst. As in Guava's {@code RateLimiter}, which
 * this replaces so that cairn-core carries no Guava (docs/decisions/0004): a caller takes its
 * permits at once and pays by delaying the caller after it, so one large charge does not make
 * its own job wait, and a changed rate applies to the permits not yet paid for.
 *
 * <p>{@link #reserve} is the whole decision and needs no real time (a test drives the clock);
 * {@link #acquire} sleeps for what it returns. Thread-safe.
 */
final class TokenBucket {
  private static final double BURST_SECONDS = 1.0;
  private final LongSupplier nanoClock;
  // Guarded by this.
  private double permitsPerSecond;
  private double storedPermits;
  /** When the next caller may go: before it, the permits handed out are not yet paid for. */
  private long nextFreeNanos;

  TokenBucket(double permitsPerSecond, LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
    this.nextFreeNanos = nanoClock.getAsLong();
    setRate(permitsPerSecond);
  }

  static TokenBucket create(double permitsPerSecond) {
    return new TokenBucket(permitsPerSecond, System::nanoTime);
  }

  synchronized void setRate(double permitsPerSecond) {
    if (!(permitsPerSecond > 0) || Double.isInfinite(permitsPerSecond)) {
      throw new IllegalArgumentException("rate must be positive and finite: " + permitsPerSecond);
    }
    refill(nanoClock.getAsLong());
    this.permitsPerSecond = permitsPerSecond;
    storedPermits = Math.min(storedPermits, maxStored());
  }

  synchronized double rate() {
    return permitsPerSecond;
  }

  /** Takes {@code permits}; returns how long the caller must wait first (nanoseconds, 0 or more). */
  synchronized long reserve(long permits) {
    if (permits < 0) {
      throw new IllegalArgumentException("permits must not be negative: " + permits);
    }
    long now = nanoClock.getAsLong();
    refill(now);
    long wait = Math.max(0, nextFreeNanos - now);
    double fromStore = Math.min(permits, storedPermits);
    storedPermits -= fromStore;
    double unpaid = permits - fromStore;
    nextFreeNanos = Math.max(nextFreeNanos, now) + (long) (unpaid / permitsPerSecond * 1e9);
    return wait;
  }

  /** Takes {@code permits}, sleeping while the permits taken before them are unpaid. */
  void acquire(long permits) {
    long wait = reserve(permits);
    if (wait > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // the caller sees the flag; the permits stay taken
      }
    }
  }

  /** Saves the permits of the idle time since the last reservation was paid, up to a burst. */
  private void refill(long now) {
    if (now > nextFreeNanos) {
      if (permitsPerSecond > 0) {
        storedPermits = Math.min(maxStored(), storedPermits + (now - nextFreeNanos) / 1e9 * permitsPerSecond);
      }
      nextFreeNanos = now;
    }
  }

  private double maxStored() {
    return BURST_SECONDS * permitsPerSecond;
  }
}

package dev.cairn.db.compact;

import dev.cairn.fs.IoPurpose;
import dev.cairn.fs.IoStats;

/**
 * DLC's rate limiter on compaction I/O (section 4.2): compaction reads plus writes together may
 * use at most the rate the load model allows (Eq. 2). Flushes are not throttled — the paper
 * treats them as unstoppable, and a slow flush would stall writers.
 *
 * <p>The bytes charged are the filesystem layer's own compaction counters ({@link IoStats}), so
 * what is throttled is exactly what compaction moved, reads and writes alike, without a hook in
 * the table reader or builder. Compaction jobs call {@link #pace()} as they go; each call
 * charges every compaction byte moved since the last charge (by any job) and blocks until the
 * token bucket has paid for them. Concurrent jobs thus share one budget.
 *
 * <p>The token bucket is {@link TokenBucket} (Guava's {@code RateLimiter} until cairn-core
 * dropped Guava, docs/decisions/0004): thread-safe, and its rate can be changed while jobs wait.
 */
public final class CompactionThrottle implements CompactionPacer {
  private final IoStats io;
  private final TokenBucket limiter;
  private final long initial;
  private long charged; // guarded by this

  CompactionThrottle(IoStats io, double initialBytesPerSecond) {
    this.io = io;
    this.limiter = TokenBucket.create(initialBytesPerSecond);
    this.initial = compactionBytes();
    this.charged = initial;
  }

  /** Changes the rate; jobs waiting now pay the next charge at the new rate. */
  void setRate(double bytesPerSecond) {
    limiter.setRate(bytesPerSecond);
  }

  double rate() {
    return limiter.rate();
  }

  /** Charges the compaction bytes moved since the last charge; blocks while over the rate. */
  @Override
  public void pace() {
    long due;
    synchronized (this) {
      long now = compactionBytes();
      due = now - charged;
      charged = now;
    }
    if (due > 0) {
      limiter.acquire(due);
    }
  }

  /** Compaction bytes charged to the limiter so far (counted from construction). */
  public synchronized long chargedBytes() {
    return charged - initial;
  }

  private long compactionBytes() {
    return io.bytesRead(IoPurpose.COMPACTION) + io.bytesWritten(IoPurpose.COMPACTION);
  }
}

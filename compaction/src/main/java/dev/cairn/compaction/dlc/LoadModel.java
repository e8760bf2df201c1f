package dev.cairn.compaction.dlc;

import java.util.Objects;

/**
 * DLC's I/O estimation model (section 3.2): once per interval, estimate the client's device
 * bandwidth from the interval's counters and classify the load.
 *
 * <ul>
 *   <li>Computation (3.2.1). Eq. 6, the default: {@code γ · blocks added to the block cache ·
 *       block bytes / T_interval} — every block added is a client read that missed the cache and
 *       went to the device. Eq. 3, the alternative: {@code (ω_get · N_get + ω_scan · N_scan) ·
 *       B_kv / T_interval}, with {@code ω·B_kv} given directly as bytes per operation. Writes
 *       cost nothing here: they go to the memtable, and flush and compaction are internal I/O.
 *   <li>Analysing (3.2.2). Above {@code io_high_limit} the load is high at once. Below {@code
 *       io_low_limit} an interval only counts towards low: a quiet interval may just be the
 *       clients stalled behind a flush, so the load turns low after {@code softness} consecutive
 *       low intervals. Between the limits nothing changes and the low streak restarts.
 *   <li>Eq. 2: the compaction rate is {@code io_limit − client − ε}, floored.
 * </ul>
 *
 * <p>The first observation only sets the baseline. {@code T_interval} is the measured time
 * between observations, not the configured interval, so a late tick does not inflate the
 * estimate. Thread-safe: one monitor ticks it, anyone may read {@link #current()}.
 */
public final class LoadModel {
  private final DlcConfig config;
  private final long blockBytes;
  private final DlcClock clock;
  private final LoadCounters counters;

  // Guarded by this.
  private boolean hasBaseline;
  private long lastNanos;
  private LoadCounters.Sample lastSample = LoadCounters.Sample.ZERO;
  private LoadEstimate current;

  /**
   * @param blockBytes B_block of Eq. 6: the engine's (uncompressed) data block size
   */
  public LoadModel(DlcConfig config, long blockBytes, DlcClock clock, LoadCounters counters) {
    this.config = Objects.requireNonNull(config, "config");
    if (blockBytes <= 0) {
      throw new IllegalArgumentException("block bytes must be positive: " + blockBytes);
    }
    this.blockBytes = blockBytes;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.counters = Objects.requireNonNull(counters, "counters");
    this.current = new LoadEstimate(0, 0, 0.0, LoadClass.LOW, 0,
        config.compactionRate(0.0));
  }

  /** Reads the clock and the counters and observes them. */
  public LoadEstimate tick() {
    long now = clock.nanoTime();
    return observe(now, counters.sample());
  }

  /** One interval ending at {@code nowNanos} with the cumulative {@code totals}. */
  public synchronized LoadEstimate observe(long nowNanos, LoadCounters.Sample totals) {
    Objects.requireNonNull(totals, "totals");
    if (!hasBaseline) {
      hasBaseline = true;
      lastNanos = nowNanos;
      lastSample = totals;
      return current;
    }
    long elapsed = nowNanos - lastNanos;
    if (elapsed <= 0) {
      // Two ticks in the same instant (or a clock step back): nothing to measure.
      return current;
    }
    double client = clientBytesPerSecond(lastSample, totals, elapsed);
    lastNanos = nowNanos;
    lastSample = totals;
    current = classify(current, client, elapsed);
    return current;
  }

  /** The last estimate (LOW with no measurement before the second observation). */
  public synchronized LoadEstimate current() {
    return current;
  }

  public DlcConfig config() {
    return config;
  }

  private double clientBytesPerSecond(LoadCounters.Sample from, LoadCounters.Sample to, long elapsedNanos) {
    double seconds = elapsedNanos / 1e9;
    double bytes = switch (config.estimator()) {
      case BLOCK_CACHE -> config.compressionRatio()
          * delta(from.blockCacheInserts(), to.blockCacheInserts()) * blockBytes;
      case WEIGHTED_OPS -> (double) config.getCostBytes() * delta(from.gets(), to.gets())
          + (double) config.scanCostBytes() * delta(from.scans(), to.scans());
    };
    return bytes / seconds;
  }

  private static long delta(long from, long to) {
    return Math.max(0, to - from);
  }

  private LoadEstimate classify(LoadEstimate previous, double client, long elapsedNanos) {
    LoadClass load = previous.load();
    int lowStreak;
    if (client > config.ioHighLimitBytesPerSecond()) {
      load = LoadClass.HIGH;
      lowStreak = 0;
    } else if (client < config.ioLowLimitBytesPerSecond()) {
      lowStreak = previous.lowStreak() + 1;
      if (lowStreak >= config.softness()) {
        load = LoadClass.LOW;
      }
    } else {
      lowStreak = 0;
    }
    return new LoadEstimate(previous.intervals() + 1, elapsedNanos, client, load, lowStreak,
        config.compactionRate(client));
  }
}

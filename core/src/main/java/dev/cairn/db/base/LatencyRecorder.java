package dev.cairn.db.base;

import dev.cairn.Stats;
import dev.cairn.util.ThreadStripes;
import org.HdrHistogram.AtomicHistogram;
import org.HdrHistogram.Histogram;

/**
 * Records operation latencies (nanoseconds in, microseconds out) with HdrHistogram. Thread-safe.
 *
 * <p>Each thread records into its own stripe ({@link ThreadStripes}), an {@link AtomicHistogram}:
 * one shared {@code ConcurrentHistogram} cost every read four atomic updates on lines the other
 * readers were updating too (its phaser's two counters, the total, the bucket). A snapshot adds
 * the stripes up; it is not atomic against concurrent recording, which statistics do not need.
 * Memory: about 27 KB a stripe (microseconds up to an hour at two significant digits), so 108-432
 * KB for each of the engine's three recorders.
 */
public final class LatencyRecorder {
  /** One hour in microseconds; longer operations are clamped. */
  static final long MAX_MICROS = 3_600_000_000L;
  static final int SIGNIFICANT_DIGITS = 2;

  private final AtomicHistogram[] stripes = new AtomicHistogram[ThreadStripes.count()];

  public LatencyRecorder() {
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = new AtomicHistogram(MAX_MICROS, SIGNIFICANT_DIGITS);
    }
  }

  public void recordSince(long startNanos) {
    record((System.nanoTime() - startNanos) / 1000);
  }

  /** Records one operation of {@code micros}, clamped to [0, one hour]. */
  public void record(long micros) {
    stripes[ThreadStripes.of(stripes.length)].recordValue(Math.min(Math.max(micros, 0), MAX_MICROS));
  }

  /** Operations recorded so far (cheap: no percentile computation). */
  public long count() {
    long count = 0;
    for (AtomicHistogram stripe : stripes) {
      count += stripe.getTotalCount();
    }
    return count;
  }

  public Stats.Latency snapshot() {
    Histogram all = new Histogram(MAX_MICROS, SIGNIFICANT_DIGITS);
    for (AtomicHistogram stripe : stripes) {
      all.add(stripe);
    }
    return new Stats.Latency(
        all.getTotalCount(),
        all.getValueAtPercentile(50),
        all.getValueAtPercentile(99),
        all.getMaxValue());
  }
}

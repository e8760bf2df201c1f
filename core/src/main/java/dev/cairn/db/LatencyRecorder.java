package dev.cairn.db;

import dev.cairn.Stats;
import org.HdrHistogram.ConcurrentHistogram;

/** Records operation latencies (nanoseconds in, microseconds out) with HdrHistogram. Thread-safe. */
final class LatencyRecorder {
  /** One hour in microseconds; longer operations are clamped. */
  private static final long MAX_MICROS = 3_600_000_000L;

  private final ConcurrentHistogram histogram = new ConcurrentHistogram(MAX_MICROS, 2);

  void recordSince(long startNanos) {
    long micros = (System.nanoTime() - startNanos) / 1000;
    histogram.recordValue(Math.min(Math.max(micros, 0), MAX_MICROS));
  }

  /** Operations recorded so far (cheap: no percentile computation). */
  long count() {
    return histogram.getTotalCount();
  }

  Stats.Latency snapshot() {
    return new Stats.Latency(
        histogram.getTotalCount(),
        histogram.getValueAtPercentile(50),
        histogram.getValueAtPercentile(99),
        histogram.getMaxValue());
  }
}

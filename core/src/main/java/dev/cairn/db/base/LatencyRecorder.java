package dev.cairn.db.base;

import dev.cairn.Stats;
import dev.cairn.util.ThreadStripes;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Records operation latencies (nanoseconds in, microseconds out) in histograms of
 * {@link LatencyBuckets}, so a reported percentile is within 1/128 of the true one. Thread-safe.
 *
 * <p>Each thread records into its own stripe ({@link ThreadStripes}): one atomic increment of one
 * bucket, on a cache line the other threads are not updating. A snapshot adds the stripes up; it
 * is not atomic against concurrent recording, which statistics do not need. Memory: 26 KB a stripe
 * (microseconds up to an hour), so 104-416 KB for each of the engine's three recorders.
 */
public final class LatencyRecorder {
  /** One hour in microseconds; longer operations are clamped. */
  static final long MAX_MICROS = 3_600_000_000L;
  private static final int BUCKETS = LatencyBuckets.count(MAX_MICROS);

  private final AtomicLongArray[] stripes = new AtomicLongArray[ThreadStripes.count()];

  public LatencyRecorder() {
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = new AtomicLongArray(BUCKETS);
    }
  }

  public void recordSince(long startNanos) {
    record((System.nanoTime() - startNanos) / 1000);
  }

  /** Records one operation of {@code micros}, clamped to [0, one hour]. */
  public void record(long micros) {
    int bucket = LatencyBuckets.index(Math.min(Math.max(micros, 0), MAX_MICROS));
    stripes[ThreadStripes.of(stripes.length)].getAndIncrement(bucket);
  }

  /** Operations recorded so far, without computing percentiles (it still reads every bucket). */
  public long count() {
    long count = 0;
    for (AtomicLongArray stripe : stripes) {
      for (int i = 0; i < BUCKETS; i++) {
        count += stripe.get(i);
      }
    }
    return count;
  }

  /**
   * The count, the median, the 99th percentile and the maximum. A percentile is the nearest rank
   * ({@code ceil(p% of n)}-th smallest value) reported as the largest value of its bucket, as is the
   * maximum; 0 for each when nothing was recorded.
   */
  public Stats.Latency snapshot() {
    long[] counts = new long[BUCKETS];
    long total = 0;
    for (AtomicLongArray stripe : stripes) {
      for (int i = 0; i < BUCKETS; i++) {
        long n = stripe.get(i);
        counts[i] += n;
        total += n;
      }
    }
    return new Stats.Latency(total, valueAtRank(counts, rank(total, 50)), valueAtRank(counts, rank(total, 99)),
        valueAtRank(counts, total));
  }

  /** The nearest rank of the {@code percent}-th percentile among {@code total} values, from 1. */
  static long rank(long total, int percent) {
    return (total * percent + 99) / 100;
  }

  private static long valueAtRank(long[] counts, long rank) {
    if (rank <= 0) {
      return 0;
    }
    long seen = 0;
    for (int i = 0; i < counts.length; i++) {
      seen += counts[i];
      if (seen >= rank) {
        return LatencyBuckets.highest(i);
      }
    }
    return 0;
  }
}

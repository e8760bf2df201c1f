package dev.cairn.cassandra;

import dev.cairn.cassandra.hot.ReadHeat;
import java.util.HashMap;
import java.util.Map;

/**
 * Per-SSTable read rates from Cassandra's read meters ({@code SSTableReader.getReadMeter()}),
 * which count the reads that selected each SSTable (after its key range and Bloom filter). The
 * meters' own rates are 15-minute and 2-hour averages, far too slow to tell which SSTables the
 * chunk cache holds now; so the strategy differences the meters' counts every load interval and
 * smooths the per-second rate with weight {@link #SMOOTHING} on the newest interval (a few
 * intervals of memory: a range that turned cold reads as cold within seconds).
 *
 * <p>An SSTable seen for the first time only sets its baseline; one that disappeared is
 * forgotten. Not thread-safe: the strategy samples it under its own lock.
 */
public final class ReadRates {
  /** Weight of the newest interval in the smoothed rate. */
  static final double SMOOTHING = 0.5;

  private final Map<Long, Long> lastCounts = new HashMap<>();
  private final Map<Long, Double> rates = new HashMap<>();
  private long lastNanos = -1;

  /**
   * Observes every live SSTable's cumulative read count at {@code nowNanos}.
   *
   * @param counts model file id to the read meter's count (absent meters are read as 0)
   */
  public void observe(Map<Long, Long> counts, long nowNanos) {
    double seconds = lastNanos < 0 ? 0 : (nowNanos - lastNanos) / 1e9;
    Map<Long, Double> next = new HashMap<>();
    for (Map.Entry<Long, Long> e : counts.entrySet()) {
      Long before = lastCounts.get(e.getKey());
      double previous = rates.getOrDefault(e.getKey(), 0.0);
      if (before == null || seconds <= 0) {
        next.put(e.getKey(), previous);
        continue;
      }
      double rate = Math.max(0, e.getValue() - before) / seconds;
      next.put(e.getKey(), SMOOTHING * rate + (1 - SMOOTHING) * previous);
    }
    lastCounts.clear();
    lastCounts.putAll(counts);
    rates.clear();
    rates.putAll(next);
    lastNanos = nowNanos;
  }

  /** The current smoothed rates (reads per second), as the chooser reads them. */
  public ReadHeat heat() {
    return ReadHeat.of(rates);
  }

  /** The smoothed rate of one SSTable; 0 if unknown. */
  public double rate(long id) {
    return rates.getOrDefault(id, 0.0);
  }
}

package dev.cairn.bench.run;

import dev.cairn.bench.engine.EngineMetrics;
import java.util.ArrayList;
import java.util.List;

/** Summary figures computed from a run's samples and counters; pure functions, NaN when unknown. */
final class DerivedFigures {
  private DerivedFigures() {}

  /**
   * The largest database size seen at a second's end or at the phase's end ({@code endDbBytes})
   * over the live user bytes: what a compaction style needs transiently (BlockDB's space figure),
   * beside the end figure. The denominator is the live data at the end of the phase (for
   * {@code load}, what was inserted). Sampled once a second, so a shorter spike can be missed.
   */
  static double spaceAmplificationPeak(List<Sample> samples, long endDbBytes, long liveUserBytes) {
    long peak = endDbBytes;
    for (Sample s : samples) {
      peak = Math.max(peak, s.dbBytes());
    }
    return liveUserBytes > 0 && peak > 0 ? (double) peak / liveUserBytes : Double.NaN;
  }

  /**
   * Bytes written into each level between two snapshots over {@code userBytes}, level 0 first, up
   * to the deepest level written during the phase (deeper, untouched levels are left out); empty
   * if unknown.
   */
  static List<Double> writeAmplificationByLevel(long[] start, long[] end, double userBytes) {
    List<Double> byLevel = new ArrayList<>();
    if (end.length == 0 || !(userBytes > 0)) {
      return byLevel;
    }
    for (int level = 0; level < end.length; level++) {
      // A level absent at the start (not reached yet) had written nothing.
      long before = level < start.length ? start[level] : 0;
      byLevel.add((end[level] - before) / userBytes);
    }
    while (!byLevel.isEmpty() && byLevel.get(byLevel.size() - 1) == 0) {
      byLevel.remove(byLevel.size() - 1);
    }
    return byLevel;
  }

  /** Mean of the finite per-second buffer sizes, NaN if no second reported one. */
  static double bufferBytesMean(List<Sample> samples) {
    return samples.stream().mapToDouble(Sample::bufferBytes).filter(Double::isFinite).average().orElse(Double.NaN);
  }

  static double bufferBytesMax(List<Sample> samples) {
    return samples.stream().mapToDouble(Sample::bufferBytes).filter(Double::isFinite).max().orElse(Double.NaN);
  }

  /** A counter's growth, NaN if either end is unavailable. */
  static double delta(long later, long earlier) {
    return EngineMetrics.available(later) && EngineMetrics.available(earlier) ? later - earlier : Double.NaN;
  }
}

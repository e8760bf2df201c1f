package dev.cairn.bench.run;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What periodic's high phases achieved (DLC section 6: the throughput should hold the offered
 * rate): mean operations per second over the high-phase seconds, how many of those seconds fell
 * below 90% of the offered rate (a "drop"), the read p99 over them, and the read p99 over the high
 * phases after the first period. The first high phase starts straight after the load, with the
 * load's compactions still owed and the cache cold, and the runs of periodic are short (two or
 * three periods): the later figure says what the engine does in a high phase once it is in its
 * stride. NaN when the run had no (later) high-phase second (every other workload).
 */
record HighPhase(double readP99Micros, double opsPerSecond, double drops, double laterReadP99Micros) {
  /** A second below this share of the offered rate is a drop. */
  static final double DROP_BELOW = 0.9;

  static HighPhase of(List<Sample> samples, double offeredOps, Histogram highPhaseReads,
      Histogram laterHighPhaseReads) {
    double sum = 0;
    int seconds = 0;
    int drops = 0;
    for (Sample s : samples) {
      if (!s.highPhase()) {
        continue;
      }
      double ops = s.readsPerSecond() + s.writesPerSecond() + s.scansPerSecond();
      sum += ops;
      seconds++;
      if (ops < DROP_BELOW * offeredOps) {
        drops++;
      }
    }
    if (seconds == 0) {
      return new HighPhase(Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }
    return new HighPhase(Runner.micros(highPhaseReads, 99), sum / seconds, drops,
        laterHighPhaseReads.getTotalCount() == 0 ? Double.NaN : Runner.micros(laterHighPhaseReads, 99));
  }
}

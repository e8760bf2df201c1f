package dev.cairn.bench.run;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What periodic's high phases achieved (DLC section 6: the throughput should hold the offered
 * rate): mean operations per second over the high-phase seconds, how many of those seconds fell
 * below 90% of the offered rate (a "drop"), and the read p99 over them. NaN when the run had no
 * high-phase second (every other workload).
 */
record HighPhase(double readP99Micros, double opsPerSecond, double drops) {
  /** A second below this share of the offered rate is a drop. */
  static final double DROP_BELOW = 0.9;

  static HighPhase of(List<Sample> samples, double offeredOps, Histogram highPhaseReads) {
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
      return new HighPhase(Double.NaN, Double.NaN, Double.NaN);
    }
    return new HighPhase(Runner.micros(highPhaseReads, 99), sum / seconds, drops);
  }
}

package dev.cairn.bench.run;

/**
 * What the phases after the measured phase saw (summary.json's {@code mixed_*} and
 * {@code scan_after_ops_per_s}); NaN for a phase that did not run or a figure the engine cannot
 * report.
 *
 * @param mixedCacheMisses data-block cache misses during the mixed phase
 * @param mixedHitRatio data-block cache hit ratio over the whole mixed phase
 * @param mixedReadsPerSecond reads per second of the mixed phase
 * @param mixedWritesPerSecond updates per second of the mixed phase
 * @param scanOpsPerSecond scans (of 1-100 records) per second of the scan phase
 * @param mixedSimulatedSeeks seeks the simulated slow device charged during the mixed phase
 * @param readOpsPerSecond point reads per second of the read phase
 * @param readHitRatio data-block cache hit ratio over the whole read phase
 */
public record FollowUp(
    double mixedCacheMisses,
    double mixedHitRatio,
    double mixedReadsPerSecond,
    double mixedWritesPerSecond,
    double scanOpsPerSecond,
    double mixedSimulatedSeeks,
    double readOpsPerSecond,
    double readHitRatio) {

  public static final FollowUp NONE =
      new FollowUp(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

  /** These figures with the mixed phase's. */
  FollowUp withMixed(double cacheMisses, double hitRatio, double readsPerSecond, double writesPerSecond,
      double simulatedSeeks) {
    return new FollowUp(cacheMisses, hitRatio, readsPerSecond, writesPerSecond, scanOpsPerSecond, simulatedSeeks,
        readOpsPerSecond, readHitRatio);
  }

  /** These figures with the read phase's. */
  FollowUp withReads(double opsPerSecond, double hitRatio) {
    return new FollowUp(mixedCacheMisses, mixedHitRatio, mixedReadsPerSecond, mixedWritesPerSecond, scanOpsPerSecond,
        mixedSimulatedSeeks, opsPerSecond, hitRatio);
  }

  /** These figures with the scan phase's. */
  FollowUp withScans(double opsPerSecond) {
    return new FollowUp(mixedCacheMisses, mixedHitRatio, mixedReadsPerSecond, mixedWritesPerSecond, opsPerSecond,
        mixedSimulatedSeeks, readOpsPerSecond, readHitRatio);
  }
}

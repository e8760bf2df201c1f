package dev.cairn.bench.run;

import java.util.List;
import java.util.Optional;

/**
 * What the phases after the measured phase saw (summary.json's {@code mixed_*},
 * {@code read_after_*}, {@code scan_after_ops_per_s} and {@code mix_*}); NaN for a phase that did
 * not run or a figure the engine cannot report.
 *
 * @param mixedCacheMisses data-block cache misses during the mixed phase
 * @param mixedHitRatio data-block cache hit ratio over the whole mixed phase
 * @param mixedReadsPerSecond reads per second of the mixed phase
 * @param mixedWritesPerSecond updates per second of the mixed phase
 * @param scanOpsPerSecond scans (of 1-100 records) per second of the scan phase
 * @param mixedSimulatedSeeks seeks the simulated slow device charged during the mixed phase
 * @param readOpsPerSecond point reads per second of the read phase
 * @param readHitRatio data-block cache hit ratio over the whole read phase
 * @param mixes BlockDB's mixes, in the order they ran; empty where they did not run
 */
public record FollowUp(
    double mixedCacheMisses,
    double mixedHitRatio,
    double mixedReadsPerSecond,
    double mixedWritesPerSecond,
    double scanOpsPerSecond,
    double mixedSimulatedSeeks,
    double readOpsPerSecond,
    double readHitRatio,
    List<MixFigures> mixes) {

  public static final FollowUp NONE = new FollowUp(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
      Double.NaN, Double.NaN, Double.NaN, List.of());

  public FollowUp {
    mixes = List.copyOf(mixes);
  }

  /** These figures with the mixed phase's. */
  FollowUp withMixed(double cacheMisses, double hitRatio, double readsPerSecond, double writesPerSecond,
      double simulatedSeeks) {
    return new FollowUp(cacheMisses, hitRatio, readsPerSecond, writesPerSecond, scanOpsPerSecond, simulatedSeeks,
        readOpsPerSecond, readHitRatio, mixes);
  }

  /** These figures with the read phase's. */
  FollowUp withReads(double opsPerSecond, double hitRatio) {
    return new FollowUp(mixedCacheMisses, mixedHitRatio, mixedReadsPerSecond, mixedWritesPerSecond, scanOpsPerSecond,
        mixedSimulatedSeeks, opsPerSecond, hitRatio, mixes);
  }

  /** These figures with the scan phase's. */
  FollowUp withScans(double opsPerSecond) {
    return new FollowUp(mixedCacheMisses, mixedHitRatio, mixedReadsPerSecond, mixedWritesPerSecond, opsPerSecond,
        mixedSimulatedSeeks, readOpsPerSecond, readHitRatio, mixes);
  }

  /** These figures with BlockDB's mixes'. */
  FollowUp withMixes(List<MixFigures> figures) {
    return new FollowUp(mixedCacheMisses, mixedHitRatio, mixedReadsPerSecond, mixedWritesPerSecond, scanOpsPerSecond,
        mixedSimulatedSeeks, readOpsPerSecond, readHitRatio, figures);
  }

  /** The figures of {@code mix}, if it ran. */
  public Optional<MixFigures> mix(String mix) {
    return mixes.stream().filter(m -> m.mix().equals(mix)).findFirst();
  }
}

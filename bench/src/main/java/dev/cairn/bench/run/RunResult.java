package dev.cairn.bench.run;

import java.util.List;
import java.util.Map;

/**
 * The outcome of one (engine, workload) run: its per-second samples and the summary.json entry.
 * Figures an engine cannot report are NaN. A failed run keeps what it measured before failing.
 *
 * @param error null when the run completed, else what stopped it
 * @param writeAmplification device bytes written over user bytes written (measured phase)
 * @param spaceAmplification database bytes at the end over the live user bytes
 * @param highPhaseReadP99Micros periodic: read p99 over the high phases' seconds (NaN otherwise)
 * @param highPhaseOpsPerSecond periodic: mean operations per second in high phases
 * @param highPhaseDrops periodic: seconds of high phases below 90% of the offered rate
 * @param laterHighPhaseReadP99Micros periodic: read p99 over the high phases after the first
 *     period, which leaves out the compactions still owed from the load and the cold cache
 * @param spaceAmplificationPeak the largest per-second database bytes over the live user bytes
 * @param writeAmplificationByLevel bytes written into each level over user bytes written
 *     (measured phase), level 0 first; empty when the engine cannot tell
 * @param followUp the mixed and scan phases after the measured phase
 * @param bufferBytesMean mean of the per-second compaction-buffer bytes (NaN without a buffer)
 * @param bufferBytesMax largest per-second compaction-buffer bytes
 * @param simulatedSeeks seeks charged by the simulated slow device over the measured phase
 * @param blockCacheMisses data-block cache misses of user reads over the measured phase (NaN when
 *     the engine cannot tell)
 * @param deviceReads reads the capped device served the run's process (and any node it started)
 *     over the measured phase, counted by the kernel's block-I/O group alike for every engine,
 *     compactions' reads included ({@code --device-read-iops}; NaN uncapped)
 * @param settleSeconds of {@code runSeconds}, those after the workers stopped while the engine
 *     still owed compactions ({@code --settle}; NaN without it)
 */
public record RunResult(
    String engine,
    String workload,
    String error,
    List<Sample> samples,
    double readOpsPerSecond,
    double writeOpsPerSecond,
    double scanOpsPerSecond,
    double hitRatioMean,
    double hitRatioMin,
    double hitRatioMax,
    double readP50Micros,
    double readP99Micros,
    double writeP99Micros,
    double writeAmplification,
    double spaceAmplification,
    double deviceBytesWritten,
    double compactionBytesWritten,
    double userBytesWritten,
    long dbBytes,
    double stallMicros,
    double loadAverageMean,
    double loadSeconds,
    double runSeconds,
    List<String> unhonouredSettings,
    Map<String, Object> config,
    double highPhaseReadP99Micros,
    double highPhaseOpsPerSecond,
    double highPhaseDrops,
    double laterHighPhaseReadP99Micros,
    double spaceAmplificationPeak,
    List<Double> writeAmplificationByLevel,
    FollowUp followUp,
    double bufferBytesMean,
    double bufferBytesMax,
    double simulatedSeeks,
    double blockCacheMisses,
    double deviceReads,
    double settleSeconds) {

  public boolean ok() {
    return error == null;
  }

  /** A run that measured nothing: every figure NaN, no samples. */
  public static RunResult failed(String engine, String workload, String error, Map<String, Object> config) {
    double n = Double.NaN;
    return new RunResult(engine, workload, error, List.of(), n, n, n, n, n, n, n, n, n, n, n, n, n, n, 0, n, n, n, n,
        List.of(), config, n, n, n, n, n, List.of(), FollowUp.NONE, n, n, n, n, n, n);
  }
}

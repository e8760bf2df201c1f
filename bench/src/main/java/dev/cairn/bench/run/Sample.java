package dev.cairn.bench.run;

/**
 * One second of a measured phase: a row of timeseries.csv (every component but {@code
 * loadAverage} and {@code highPhase}, in the contract's column order) plus what the summary
 * aggregates. NaN means "not reported by this engine" or "no operation of that kind in this
 * second".
 *
 * @param elapsedSeconds seconds since the measured phase began, at the end of this interval
 * @param compactionBytesWritten cumulative since the measured phase began
 * @param dbBytes bytes of the database directory at the end of this interval
 * @param loadAverage the machine's one-minute load average (two shared cores: see peers.md)
 * @param l0Files tables in level 0 at the end of this interval; -1 if the engine cannot tell
 * @param loadClass the load class a load-aware scheduler saw (DLC's HIGH/LOW), or empty
 * @param highPhase whether this second belongs to a high phase of {@code periodic}
 * @param bufferBytes bytes held by a compaction buffer at the end of this interval (LSbM), NaN
 *     when the engine has none
 */
public record Sample(
    double elapsedSeconds,
    String engine,
    String workload,
    double readsPerSecond,
    double writesPerSecond,
    double scansPerSecond,
    double hitRatio,
    double readP50Micros,
    double readP99Micros,
    double writeP99Micros,
    double compactionBytesWritten,
    long dbBytes,
    double loadAverage,
    int l0Files,
    String loadClass,
    boolean highPhase,
    double bufferBytes) {}

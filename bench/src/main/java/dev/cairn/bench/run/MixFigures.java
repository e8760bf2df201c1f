package dev.cairn.bench.run;

/**
 * What one of BlockDB's mixes ({@link dev.cairn.bench.workload.BlockDbMix}) did on the loaded tree
 * ({@code --ycsb-mix-seconds}); NaN for a figure the engine cannot report.
 *
 * @param mix the mix's key ({@link dev.cairn.bench.workload.BlockDbMix#key})
 * @param opsPerSecond requests per second: point reads, scans and writes
 * @param writeAmplification device bytes written during the mix over the user bytes its writes
 *     carried; NaN for the read-only mix
 * @param hitRatio data-block cache hit ratio over the mix
 */
public record MixFigures(String mix, double opsPerSecond, double writeAmplification, double hitRatio) {}

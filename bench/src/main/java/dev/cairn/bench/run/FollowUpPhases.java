package dev.cairn.bench.run;

import dev.cairn.bench.RunConfig;
import dev.cairn.bench.device.PageCache;
import dev.cairn.bench.engine.BenchEngine;
import dev.cairn.bench.engine.EngineMetrics;
import dev.cairn.bench.workload.BlockDbMix;
import dev.cairn.bench.workload.FollowUpWorkloads;
import dev.cairn.bench.workload.KeySpace;
import dev.cairn.bench.workload.Values;
import dev.cairn.bench.workload.Worker;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the optional phases after a measured phase, on the same open database: first
 * {@code --mixed-seconds} of {@link FollowUpWorkloads#mixed}, then {@code --read-seconds} of
 * {@link FollowUpWorkloads#reads}, then {@code --scan-seconds} of {@link FollowUpWorkloads#scans},
 * then {@code --ycsb-mix-seconds} of each of BlockDB's mixes ({@link FollowUpWorkloads#mix}), the
 * most writing first: the read figures are the loaded tree's, and each mix finds the tree the
 * previous one left. They add no timeseries rows (the measured phase's figures stay as they
 * were); their totals go into {@link FollowUp}.
 */
final class FollowUpPhases {
  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  /** Salts, so that the phases' streams differ from the measured phase's and from each other. */
  private static final long MIXED_SALT = 0x313ed;
  private static final long SCAN_SALT = 0x5ca4;
  private static final long READ_SALT = 0x7ead;
  private static final long MIX_SALT = 0xb10cdbL;

  private final RunConfig config;
  private final PrintStream progress;
  private final String label;

  /** @param label "engine workload", for the progress lines */
  FollowUpPhases(RunConfig config, PrintStream progress, String label) {
    this.config = config;
    this.progress = progress;
    this.label = label;
  }

  FollowUp run(BenchEngine engine, KeySpace keys, Values values) {
    FollowUp result = FollowUp.NONE;
    if (config.mixedSeconds() > 0) {
      Totals t = phase("mixed", FollowUpWorkloads.mixed(config, keys), config.mixedSeconds(), MIXED_SALT, engine,
          values);
      result = result.withMixed(Runner.delta(t.after.blockCacheMisses(), t.before.blockCacheMisses()),
          t.after.hitRatioSince(t.before), t.reads / t.seconds, t.writes / t.seconds,
          Runner.delta(t.seeksAfter, t.seeksBefore));
    }
    if (config.readSeconds() > 0) {
      Totals t = phase("read", FollowUpWorkloads.reads(config, keys), config.readSeconds(), READ_SALT, engine, values);
      result = result.withReads(t.reads / t.seconds, t.after.hitRatioSince(t.before));
    }
    if (config.scanSeconds() > 0) {
      Totals t = phase("scan", FollowUpWorkloads.scans(config, keys), config.scanSeconds(), SCAN_SALT, engine, values);
      result = result.withScans(t.scans / t.seconds);
    }
    if (config.ycsbMixSeconds() > 0) {
      List<MixFigures> mixes = new ArrayList<>();
      for (BlockDbMix mix : BlockDbMix.inOrder()) {
        Totals t = phase("mix " + mix.key(), FollowUpWorkloads.mix(config, keys, mix), config.ycsbMixSeconds(),
            MIX_SALT + mix.ordinal(), engine, values);
        double device = Runner.delta(t.after.deviceBytesWritten(), t.before.deviceBytesWritten());
        double writeAmplification = mix.writes() && t.userBytesWritten > 0 ? device / t.userBytesWritten : Double.NaN;
        mixes.add(new MixFigures(mix.key(), (t.reads + t.writes + t.scans) / t.seconds, writeAmplification,
            t.after.hitRatioSince(t.before)));
      }
      result = result.withMixes(mixes);
    }
    return result;
  }

  private record Totals(long reads, long writes, long scans, long userBytesWritten, double seconds,
      EngineMetrics before, EngineMetrics after, long seeksBefore, long seeksAfter) {}

  private Totals phase(String name, List<Worker> workers, double seconds, long salt, BenchEngine engine,
      Values values) {
    if (config.deviceCapped()) {
      try {
        PageCache.drop(); // each measured phase starts from the device, as the main phase does
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    OpCounters counters = new OpCounters();
    EngineMetrics before = engine.metrics();
    long seeksBefore = engine.simulatedSeeks();
    long start = System.nanoTime();
    long stopAt = start + (long) (seconds * NANOS_PER_SECOND);
    WorkerThreads threads = new WorkerThreads(workers, engine, values, counters, config.seed() ^ salt, config.keyBytes(), start, stopAt,
        "bench-" + name);
    threads.start();
    for (long tick = start + NANOS_PER_SECOND; ; tick += NANOS_PER_SECOND) {
      boolean alive = threads.sleepUntil(Math.min(tick, stopAt));
      double elapsed = (System.nanoTime() - start) / 1e9;
      progress.printf("[%s] %s %.0f/%.0f s  reads %,d  writes %,d  scans %,d%n", label, name, elapsed, seconds,
          counters.reads.sum(), counters.writes.sum(), counters.scans.sum());
      if (System.nanoTime() >= stopAt || !alive || threads.failure() != null) {
        break;
      }
    }
    threads.join();
    double elapsed = (System.nanoTime() - start) / 1e9;
    EngineMetrics after = engine.metrics();
    long seeksAfter = engine.simulatedSeeks();
    threads.rethrowFailure();
    return new Totals(counters.reads.sum(), counters.writes.sum(), counters.scans.sum(),
        counters.userBytesWritten.sum(), elapsed, before, after, seeksBefore, seeksAfter);
  }
}

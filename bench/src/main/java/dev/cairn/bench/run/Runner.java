package dev.cairn.bench.run;

import dev.cairn.bench.RunConfig;
import dev.cairn.bench.device.PageCache;
import dev.cairn.bench.device.ReadIopsCap;
import dev.cairn.bench.engine.BenchEngine;
import dev.cairn.bench.engine.EngineMetrics;
import dev.cairn.bench.engine.EngineSettings;
import dev.cairn.bench.engine.Engines;
import dev.cairn.bench.workload.KeySpace;
import dev.cairn.bench.workload.LoadOrder;
import dev.cairn.bench.workload.Values;
import dev.cairn.bench.workload.Worker;
import dev.cairn.bench.workload.Workload;
import dev.cairn.bench.workload.Workloads;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;

/**
 * Runs one workload on one engine: a fresh database, an unmeasured load phase (for preloaded
 * workloads), then the measured phase, sampled every second. A failure of the engine ends the
 * run and is returned in the result, so that a comparison goes on with the other runs.
 */
public final class Runner {
  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  /** How long {@code --settle} waits for a tree to settle before it fails the run. */
  private static final long SETTLE_LIMIT_NANOS = 4 * 3600 * NANOS_PER_SECOND;

  private final RunConfig config;
  private final PrintStream progress;

  /** @param progress receives one line per second (phase, elapsed, ops/s); stderr on the CLI */
  public Runner(RunConfig config, PrintStream progress) {
    this.config = config;
    this.progress = progress;
  }

  public RunResult run(String engineName, Workload workload) {
    Path dir = config.dataDir().resolve(engineName + "-" + workload.name());
    Measurement m = new Measurement(engineName, workload.name());
    BenchEngine engine = Engines.create(engineName);
    try {
      DirectorySize.deleteRecursively(dir);
      Files.createDirectories(dir);
      engine.open(dir, settingsFor(workload));
      m.unhonoured = engine.unhonouredSettings();
      if (config.settle() && engine.compactionsPending().isEmpty()) {
        m.unhonoured = new ArrayList<>(m.unhonoured);
        m.unhonoured.add("settle: the engine cannot tell whether it owes compactions; its run ends with its workers");
      }
      KeySpace keys = new KeySpace(config.records());
      Values values = new Values(config.valueBytes(), config.compressionRatio(), config.seed());
      if (workload.preload()) {
        m.loadSeconds = load(engine, values, m);
      }
      measure(engine, workload, keys, values, dir, m);
      long liveRecords = workload.preload() ? keys.size() : m.counters.writes.sum();
      m.liveUserBytes = liveRecords * config.recordBytes();
      m.followUp = new FollowUpPhases(config, progress, engineName + " " + workload.name()).run(engine, keys, values);
    } catch (RuntimeException | IOException | Error e) {
      m.error = e.getClass().getSimpleName() + ": " + e.getMessage();
      progress.printf("[%s %s] FAILED: %s%n", engineName, workload.name(), m.error);
    } finally {
      try {
        engine.close();
      } catch (RuntimeException e) {
        m.error = m.error != null ? m.error : "close failed: " + e.getMessage();
      }
      if (!config.keepData()) {
        try {
          DirectorySize.deleteRecursively(dir);
        } catch (IOException e) {
          progress.printf("[%s %s] could not delete %s: %s%n", engineName, workload.name(), dir, e);
        }
      }
    }
    return m.toResult(config);
  }

  /**
   * The engine settings of a run: the offered rates only for periodic, whose phases they describe
   * (EngineSettings; {@code cairn-table+dlc} and {@code cassandra-cairn} set their load limits from
   * them, and keep their defaults for every other workload, as docs/benchmarks.md says).
   */
  EngineSettings settingsFor(Workload workload) {
    EngineSettings s = config.engineSettings();
    return workload.name().equals("periodic") ? s : s.withoutOfferedRates();
  }

  /** Inserts every record once in a seeded random order; not measured. Returns its seconds. */
  private double load(BenchEngine engine, Values values, Measurement m) {
    LoadOrder order = new LoadOrder(config.records(), config.seed());
    SplittableRandom random = new SplittableRandom(config.seed() ^ 0x10ad);
    long start = System.nanoTime();
    long nextReport = start + NANOS_PER_SECOND;
    long done = 0;
    for (long id = order.next(); id >= 0; id = order.next()) {
      engine.put(config.key(id), values.next(random));
      done++;
      if ((done & 1023) == 0 && System.nanoTime() >= nextReport) {
        double elapsed = (System.nanoTime() - start) / 1e9;
        progress.printf("[%s %s] load %.0f s  %,d/%,d records  %,.0f writes/s%n", m.engine, m.workload,
            elapsed, done, order.size(), done / elapsed);
        nextReport += NANOS_PER_SECOND;
      }
    }
    engine.flush();
    return (System.nanoTime() - start) / 1e9;
  }

  private void measure(BenchEngine engine, Workload workload, KeySpace keys, Values values, Path dir,
      Measurement m) throws IOException {
    List<Worker> workers = workload.workers().apply(config, keys);
    // Before the clock starts: writing dirty pages back can take seconds, which are not the run's.
    ReadIopsCap.OwnGroupReads device = null;
    if (config.deviceCapped()) {
      PageCache.drop();
      device = ReadIopsCap.ofThisProcess(config.dataDir());
    }
    long start = System.nanoTime();
    long stopAt = start + (long) (config.seconds() * NANOS_PER_SECOND);
    WorkerThreads threads = new WorkerThreads(workers, engine, values, m.counters, config.seed(), config.keyBytes(),
        start, stopAt, "bench-" + workload.name());
    EngineMetrics first = engine.metrics();
    m.startMetrics = first;
    m.startLevelBytes = engine.bytesWrittenByLevel();
    m.startSeeks = engine.simulatedSeeks();
    threads.start();

    EngineMetrics previous = first;
    long previousTick = start;
    long[] previousCounts = new long[3];
    Histogram readTotal = new Histogram(OpCounters.LATENCY_DIGITS);
    Histogram writeTotal = new Histogram(OpCounters.LATENCY_DIGITS);
    boolean periodic = workload.name().equals("periodic");
    long workersEnd = -1; // when the workers stopped, once they have (--settle samples on after it)
    for (long tick = start + NANOS_PER_SECOND; ; tick += NANOS_PER_SECOND) {
      boolean alive = workersEnd < 0 ? threads.sleepUntil(Math.min(tick, stopAt)) : sleepUntil(tick);
      long now = System.nanoTime();
      double interval = (now - previousTick) / 1e9;
      long[] counts = {m.counters.reads.sum(), m.counters.writes.sum(), m.counters.scans.sum()};
      // The gathered histograms are the recorders' own, refilled next second: read only within
      // this iteration, so the fixed-range recorders allocate no new ones each second.
      Histogram reads = m.counters.readLatency.interval();
      Histogram writes = m.counters.writeLatency.interval();
      readTotal.add(reads);
      writeTotal.add(writes);
      EngineMetrics current = engine.metrics();
      // A high-phase second lies wholly in a high phase (a second straddling a switch is neither).
      double from = (previousTick - start) / 1e9 + 1e-3;
      double to = (now - start) / 1e9 - 1e-3;
      boolean highPhase = periodic && Workloads.periodicHighPhase(config, from)
          && Workloads.periodicHighPhase(config, to);
      if (highPhase) {
        m.highPhaseReads.add(reads);
        if (from >= Workloads.periodicPeriodSeconds(config)) {
          m.laterHighPhaseReads.add(reads);
        }
      }
      Sample s = new Sample((now - start) / 1e9, m.engine, m.workload,
          (counts[0] - previousCounts[0]) / interval,
          (counts[1] - previousCounts[1]) / interval,
          (counts[2] - previousCounts[2]) / interval,
          current.hitRatioSince(previous),
          micros(reads, 50), micros(reads, 99), micros(writes, 99),
          delta(current.compactionBytesWritten(), first.compactionBytesWritten()),
          DirectorySize.of(dir),
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
          engine.l0Files(), engine.loadClass(), highPhase, engine.bufferBytes());
      m.samples.add(s);
      progress.printf("[%s %s] %s %.0f/%.0f s  reads %,.0f/s  writes %,.0f/s  scans %,.0f/s  hit %s  db %,d MiB%n",
          m.engine, m.workload, workersEnd < 0 ? "measure" : "settle", s.elapsedSeconds(), config.seconds(),
          s.readsPerSecond(), s.writesPerSecond(),
          s.scansPerSecond(), Double.isNaN(s.hitRatio()) ? "n/a" : String.format("%.3f", s.hitRatio()),
          s.dbBytes() >> 20);
      previous = current;
      previousTick = now;
      previousCounts = counts;
      if (workersEnd < 0 && (now >= stopAt || !alive || threads.failure() != null)) {
        workersEnd = now;
        if (!config.settle() || threads.failure() != null) {
          break;
        }
      }
      if (workersEnd >= 0 && settled(engine, now - workersEnd)) {
        break;
      }
    }
    threads.join();
    m.runSeconds = (System.nanoTime() - start) / 1e9;
    m.settleSeconds = config.settle() ? (System.nanoTime() - workersEnd) / 1e9 : Double.NaN;
    m.readTotal = readTotal;
    m.writeTotal = writeTotal;
    m.endMetrics = engine.metrics();
    m.endLevelBytes = engine.bytesWrittenByLevel();
    m.seeks = engine.simulatedSeeks();
    m.deviceReads = device == null ? Double.NaN : device.served();
    m.dbBytes = DirectorySize.of(dir);
    threads.rethrowFailure();
  }

  /**
   * Whether a settling run ends now: the engine owes no compaction, or cannot tell. A tree that
   * has not settled {@link #SETTLE_LIMIT_NANOS} after its workers stopped fails the run: its
   * figures would not be a settled tree's.
   */
  private static boolean settled(BenchEngine engine, long sinceWorkersEnd) {
    boolean pending = engine.compactionsPending().orElse(false);
    if (pending && sinceWorkersEnd > SETTLE_LIMIT_NANOS) {
      throw new IllegalStateException("the engine still owed compactions " + SETTLE_LIMIT_NANOS / NANOS_PER_SECOND
          + " s after its workers stopped (--settle)");
    }
    return !pending;
  }

  /** Sleeps until {@code deadline} (a settling run's next sample); false, as no worker runs then. */
  private static boolean sleepUntil(long deadline) {
    for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
      java.util.concurrent.locks.LockSupport.parkNanos(left);
    }
    return false;
  }

  static double micros(Histogram h, double percentile) {
    return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
  }

  static double delta(long later, long earlier) {
    return DerivedFigures.delta(later, earlier);
  }

  /**
   * The run's configuration as summary.json reports it, with the JVM that ran it: each run has its
   * own unless {@code --same-jvm} was given ({@link ForkedRunner}).
   */
  static Map<String, Object> configOfRun(RunConfig config) {
    Map<String, Object> m = new LinkedHashMap<>(config.asMap());
    m.put("jvm_pid", ProcessHandle.current().pid());
    return Collections.unmodifiableMap(m);
  }

  /** Mutable state of one run while it is measured; {@link #toResult} freezes it. */
  private static final class Measurement {
    final String engine;
    final String workload;
    final OpCounters counters = new OpCounters();
    final List<Sample> samples = new ArrayList<>();
    List<String> unhonoured = List.of();
    String error;
    double loadSeconds;
    double runSeconds;
    double settleSeconds = Double.NaN;
    long liveUserBytes;
    long dbBytes;
    Histogram readTotal = new Histogram(OpCounters.LATENCY_DIGITS);
    Histogram writeTotal = new Histogram(OpCounters.LATENCY_DIGITS);
    final Histogram highPhaseReads = new Histogram(OpCounters.LATENCY_DIGITS);
    /** High-phase reads after the first period (HighPhase). */
    final Histogram laterHighPhaseReads = new Histogram(OpCounters.LATENCY_DIGITS);
    EngineMetrics startMetrics;
    EngineMetrics endMetrics;
    long[] startLevelBytes = new long[0];
    long[] endLevelBytes = new long[0];
    long startSeeks = EngineMetrics.UNAVAILABLE;
    long seeks = EngineMetrics.UNAVAILABLE;
    double deviceReads = Double.NaN;
    FollowUp followUp = FollowUp.NONE;

    Measurement(String engine, String workload) {
      this.engine = engine;
      this.workload = workload;
    }

    RunResult toResult(RunConfig config) {
      double seconds = runSeconds > 0 ? runSeconds : Double.NaN;
      double hitMean = Double.NaN;
      double hitMin = Double.NaN;
      double hitMax = Double.NaN;
      double loadSum = 0;
      int hitCount = 0;
      for (Sample s : samples) {
        loadSum += s.loadAverage();
        if (!Double.isNaN(s.hitRatio())) {
          hitMean = hitCount == 0 ? s.hitRatio() : hitMean + s.hitRatio();
          hitMin = hitCount == 0 ? s.hitRatio() : Math.min(hitMin, s.hitRatio());
          hitMax = hitCount == 0 ? s.hitRatio() : Math.max(hitMax, s.hitRatio());
          hitCount++;
        }
      }
      hitMean = hitCount == 0 ? Double.NaN : hitMean / hitCount;
      double device = Double.NaN;
      double compaction = Double.NaN;
      double stall = Double.NaN;
      if (startMetrics != null && endMetrics != null) {
        device = delta(endMetrics.deviceBytesWritten(), startMetrics.deviceBytesWritten());
        compaction = delta(endMetrics.compactionBytesWritten(), startMetrics.compactionBytesWritten());
        stall = delta(endMetrics.stallMicros(), startMetrics.stallMicros());
      }
      double user = counters.userBytesWritten.sum();
      HighPhase high = HighPhase.of(samples, config.highOps(), highPhaseReads, laterHighPhaseReads);
      return new RunResult(engine, workload, error, List.copyOf(samples),
          counters.reads.sum() / seconds, counters.writes.sum() / seconds, counters.scans.sum() / seconds,
          hitMean, hitMin, hitMax,
          micros(readTotal, 50), micros(readTotal, 99), micros(writeTotal, 99),
          user > 0 ? device / user : Double.NaN,
          liveUserBytes > 0 && dbBytes > 0 ? (double) dbBytes / liveUserBytes : Double.NaN,
          device, compaction, user, dbBytes, stall,
          samples.isEmpty() ? Double.NaN : loadSum / samples.size(),
          loadSeconds, seconds, unhonoured, configOfRun(config),
          high.readP99Micros(), high.opsPerSecond(), high.drops(), high.laterReadP99Micros(),
          DerivedFigures.spaceAmplificationPeak(samples, dbBytes, liveUserBytes),
          DerivedFigures.writeAmplificationByLevel(startLevelBytes, endLevelBytes, user),
          followUp, DerivedFigures.bufferBytesMean(samples), DerivedFigures.bufferBytesMax(samples),
          delta(seeks, startSeeks),
          startMetrics != null && endMetrics != null
              ? delta(endMetrics.blockCacheMisses(), startMetrics.blockCacheMisses()) : Double.NaN,
          deviceReads, settleSeconds);
    }
  }
}

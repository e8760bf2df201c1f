package dev.cairn.bench.report;

import dev.cairn.bench.run.RunResult;
import dev.cairn.bench.run.Sample;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * One run's figures as a series reads them ({@link Figure}), taken either from a run just made
 * ({@link #of}) or from the records a run kept ({@link #fromRecords}: summary.json and
 * timeseries.csv), so that a series can be rendered again from the kept records alone.
 *
 * @param figures every figure the run has; NaN where the engine or the run could not tell
 */
public record RunFigures(String engine, String workload, boolean ok, Map<Figure, Double> figures) {
  private static final int ELAPSED = Outputs.CSV_COLUMNS.indexOf("elapsed_s");
  private static final int ENGINE = Outputs.CSV_COLUMNS.indexOf("engine");
  private static final int WORKLOAD = Outputs.CSV_COLUMNS.indexOf("workload");
  private static final int READS_PER_S = Outputs.CSV_COLUMNS.indexOf("reads_per_s");
  private static final int SCANS_PER_S = Outputs.CSV_COLUMNS.indexOf("scans_per_s");
  private static final int WRITES_PER_S = Outputs.CSV_COLUMNS.indexOf("writes_per_s");

  public double get(Figure f) {
    return figures.getOrDefault(f, Double.NaN);
  }

  public static RunFigures of(RunResult r) {
    double ops = (r.readOpsPerSecond() + (Double.isFinite(r.scanOpsPerSecond()) ? r.scanOpsPerSecond() : 0))
        * r.runSeconds();
    Map<Figure, Double> figures = figures(r.readOpsPerSecond(),
        meanAfterFirstThird(r.samples(), Sample::elapsedSeconds, Sample::readsPerSecond),
        r.scanOpsPerSecond(),
        meanAfterFirstThird(r.samples(), Sample::elapsedSeconds, Sample::scansPerSecond),
        r.writeOpsPerSecond(), meanAfterFirstThird(r.samples(), Sample::elapsedSeconds, Sample::writesPerSecond),
        r.readP99Micros(), r.highPhaseReadP99Micros(), r.hitRatioMean(),
        r.blockCacheMisses() / ops, r.deviceReads() / ops,
        r.writeAmplification(), r.spaceAmplificationPeak(), r.followUp().readOpsPerSecond(),
        r.followUp().scanOpsPerSecond());
    Map<String, Double> mixes = Outputs.mixFigures(r.followUp());
    putMixFigures(figures, key -> mixes.getOrDefault(key, Double.NaN));
    return new RunFigures(r.engine(), r.workload(), r.ok(), figures);
  }

  /** The mixes' figures ({@link Figure#ofMix}), each read by its summary.json key. */
  private static void putMixFigures(Map<Figure, Double> figures, ToDoubleFunction<String> byKey) {
    for (Figure f : Figure.values()) {
      if (f.ofMix()) {
        figures.put(f, byKey.applyAsDouble(f.key()));
      }
    }
  }

  /**
   * The runs of one round's output directory: its summary.json, with timeseries.csv (or, as the
   * records kept under docs/results hold it, timeseries.csv.gz) for the steady window.
   */
  @SuppressWarnings("unchecked")
  public static List<RunFigures> fromRecords(Path dir) throws IOException {
    List<Map<String, Object>> entries =
        (List<Map<String, Object>>) JsonParser.parse(Files.readString(dir.resolve("summary.json")));
    List<String[]> rows = timeseries(dir);
    List<RunFigures> runs = new ArrayList<>();
    for (Map<String, Object> e : entries) {
      String engine = (String) e.get("engine");
      String workload = (String) e.get("workload");
      List<String[]> own =
          rows.stream().filter(r -> r[ENGINE].equals(engine) && r[WORKLOAD].equals(workload)).toList();
      double reads = number(e, "read_ops_per_s");
      double scans = number(e, "scan_ops_per_s");
      double ops = (reads + (Double.isFinite(scans) ? scans : 0)) * number(e, "run_seconds");
      Map<Figure, Double> figures = figures(reads,
          meanAfterFirstThird(own, r -> cell(r, ELAPSED), r -> cell(r, READS_PER_S)), scans,
          meanAfterFirstThird(own, r -> cell(r, ELAPSED), r -> cell(r, SCANS_PER_S)),
          number(e, "write_ops_per_s"), meanAfterFirstThird(own, r -> cell(r, ELAPSED), r -> cell(r, WRITES_PER_S)),
          number(e, "read_p99_us"), number(e, "high_phase_read_p99_us"),
          number(e, "hit_ratio_mean"), number(e, "block_cache_misses") / ops,
          number(e, "device_reads") / ops, number(e, "write_amplification"),
          number(e, "space_amplification_peak"), number(e, "read_after_ops_per_s"),
          number(e, "scan_after_ops_per_s"));
      putMixFigures(figures, key -> number(e, key));
      runs.add(new RunFigures(engine, workload, "ok".equals(e.get("status")), figures));
    }
    return runs;
  }

  /** The configuration the first run of a round's summary.json recorded, without its JVM's pid. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> configOfRecords(Path dir) throws IOException {
    List<Map<String, Object>> entries =
        (List<Map<String, Object>>) JsonParser.parse(Files.readString(dir.resolve("summary.json")));
    Map<String, Object> config = new java.util.LinkedHashMap<>();
    if (!entries.isEmpty() && entries.get(0).get("config") instanceof Map<?, ?> c) {
      ((Map<String, Object>) c).forEach((k, v) -> {
        if (!k.equals("jvm_pid")) {
          config.put(k, v);
        }
      });
    }
    return config;
  }

  private static Map<Figure, Double> figures(double reads, double readsAfter, double scans, double scansAfter,
      double writes, double writesAfter, double p99, double highPhaseP99, double hitRatio, double missesPerRead,
      double deviceReadsPerRead, double writeAmplification, double peakSpace, double readPhase, double scanPhase) {
    Map<Figure, Double> m = new EnumMap<>(Figure.class);
    m.put(Figure.READS, reads);
    m.put(Figure.READS_AFTER, readsAfter);
    m.put(Figure.SCANS, scans);
    m.put(Figure.SCANS_AFTER, scansAfter);
    m.put(Figure.WRITES, writes);
    m.put(Figure.WRITES_AFTER, writesAfter);
    m.put(Figure.READ_P99, p99);
    m.put(Figure.HIGH_PHASE_READ_P99, highPhaseP99);
    m.put(Figure.HIT_RATIO, hitRatio);
    m.put(Figure.MISSES_PER_READ, missesPerRead);
    m.put(Figure.DEVICE_READS_PER_READ, deviceReadsPerRead);
    m.put(Figure.WRITE_AMPLIFICATION, writeAmplification);
    m.put(Figure.PEAK_SPACE, peakSpace);
    m.put(Figure.READ_PHASE, readPhase);
    m.put(Figure.SCAN_PHASE, scanPhase);
    return m;
  }

  /** The mean of {@code metric} over the samples after the first third of the run's seconds. */
  static <T> double meanAfterFirstThird(List<T> samples, ToDoubleFunction<T> elapsed, ToDoubleFunction<T> metric) {
    double last = samples.stream().mapToDouble(elapsed).max().orElse(0);
    return samples.stream().filter(s -> elapsed.applyAsDouble(s) > last / 3).mapToDouble(metric)
        .filter(Double::isFinite).average().orElse(Double.NaN);
  }

  private static List<String[]> timeseries(Path dir) throws IOException {
    Path csv = dir.resolve("timeseries.csv");
    Path gz = dir.resolve("timeseries.csv.gz");
    List<String> lines;
    if (Files.exists(csv)) {
      lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
    } else if (Files.exists(gz)) {
      try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(gz))) {
        lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
      }
    } else {
      return List.of();
    }
    return lines.stream().skip(1).map(l -> l.split(",", -1)).filter(f -> f.length == Outputs.CSV_COLUMNS.size()).toList();
  }

  private static double cell(String[] row, int column) {
    return row[column].isEmpty() ? Double.NaN : Double.parseDouble(row[column]);
  }

  private static double number(Map<String, Object> entry, String key) {
    return entry.get(key) instanceof Number n ? n.doubleValue() : Double.NaN;
  }
}

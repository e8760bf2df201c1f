package dev.cairn.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.report.SeriesAnalysis.Band;
import dev.cairn.bench.report.SeriesAnalysis.Verdict;
import dev.cairn.bench.run.FollowUp;
import dev.cairn.bench.run.RunResult;
import dev.cairn.bench.run.Sample;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * series.md and series.json: medians [min-max] over rounds, ratios as the median of per-round
 * ratios, each judged against the A/A control's band, failed runs left out, and the same series
 * rendered again from the kept records.
 */
class SeriesReportTest {
  private static final List<String> ENGINES = List.of("cairn-table", "cairn-table-same", "cairn-dlsm", "rocksdb");

  /** A finished run with the given reads/s and p99, one sample before and two after the first third. */
  private static RunResult run(String engine, double readsPerSecond, double p99, double lateReads) {
    List<Sample> samples = new ArrayList<>();
    double[] reads = {1, lateReads, lateReads};
    for (int t = 0; t < 3; t++) {
      double elapsed = 10 * (t + 1);
      samples.add(new Sample(elapsed, engine, "zipfian", reads[t], 1000, 0, 0.5, 1, p99, 1, 0, 1, 0, 0, "", false,
          Double.NaN));
    }
    double n = Double.NaN;
    // 30 s at readsPerSecond: misses are a tenth of the reads.
    return new RunResult(engine, "zipfian", null, samples, readsPerSecond, 1000, 0, 0.5, 0.5, 0.5, 1, p99, 1, 4.0, n,
        n, n, n, 0, 0, n, n, 30, List.of(), Map.of("seconds", 30), n, n, n, n, 1.5, List.of(), FollowUp.NONE, n, n,
        n, readsPerSecond * 30 / 10, n, n);
  }

  private static List<RunFigures> round(RunResult... runs) {
    return java.util.Arrays.stream(runs).map(RunFigures::of).toList();
  }

  private static String row(String markdown, String start) {
    return markdown.lines().filter(l -> l.startsWith(start)).findFirst()
        .orElseThrow(() -> new AssertionError("no row starting '" + start + "' in:\n" + markdown));
  }

  /** Three rounds: the A/A pair within 10%, cairn-dlsm 2-3x rocksdb, rocksdb inside cairn-table's noise. */
  private static List<List<RunFigures>> series() {
    return List.of(
        round(run("cairn-table", 100, 10, 100), run("cairn-table-same", 110, 10, 110), run("cairn-dlsm", 300, 5, 300),
            run("rocksdb", 100, 20, 100)),
        round(run("rocksdb", 120, 20, 120), run("cairn-table", 100, 10, 100), run("cairn-table-same", 95, 10, 95),
            run("cairn-dlsm", 250, 5, 250)),
        round(run("cairn-dlsm", 200, 5, 200), run("rocksdb", 100, 20, 100), run("cairn-table", 100, 10, 100),
            run("cairn-table-same", 100, 10, 100)));
  }

  @Test
  void eachRatioIsJudgedAgainstTheAaBand() {
    String md = SeriesReport.render(series(), ENGINES, Map.of("records", 1));
    assertTrue(md.startsWith("# Series of 3 rounds"), md);
    // Each round's engine order, as the round ran it, closes the report.
    assertTrue(md.endsWith("## Engine order by round\n\n- round 1: cairn-table, cairn-table-same, cairn-dlsm, rocksdb\n"
        + "- round 2: rocksdb, cairn-table, cairn-table-same, cairn-dlsm\n"
        + "- round 3: cairn-dlsm, rocksdb, cairn-table, cairn-table-same\n"), md);
    // The A/A band: 1.10, 0.95, 1.00.
    assertTrue(row(md, "| A/A band: cairn-table-same / cairn-table | 3 | 1.00 [0.95-1.10] |").length() > 0, md);
    // cairn-dlsm over rocksdb: 3.00, 2.08, 2.00, wholly above the band: better; its p99 0.25 is lower: better.
    assertTrue(row(md, "| cairn-dlsm / rocksdb |").startsWith("| cairn-dlsm / rocksdb | 3 | 2.08 [2.00-3.00] better |"),
        md);
    assertTrue(row(md, "| cairn-dlsm / rocksdb |").contains("| 0.25 better |"), md);
    // cairn-table over rocksdb: 1.00, 0.83, 1.00 overlaps [0.95, 1.10]: no difference.
    assertTrue(row(md, "| cairn-table / rocksdb |").startsWith("| cairn-table / rocksdb | 3 | 1.00 [0.83-1.00] same |"),
        md);
    // Its p99 is half rocksdb's in every round, wholly below the band's 1.00: better.
    assertTrue(row(md, "| cairn-table / rocksdb |").contains("| 0.50 better |"), md);
    // The control twin is in the engine table but in no ratio of its own.
    assertTrue(md.contains("| cairn-table-same | 3/3 |"), md);
    assertTrue(md.lines().noneMatch(l -> l.startsWith("| cairn-table-same / rocksdb")), md);
  }

  /**
   * A load's run as its figures: it reads nothing, so its rate is its writes/s; a Cairn engine's
   * steady window twice its whole run (a slow start), RocksDB's the same as its whole run.
   */
  private static RunFigures load(String engine, double writesPerSecond) {
    return new RunFigures(engine, "load", true, Map.of(Figure.READS, 0.0, Figure.WRITES, writesPerSecond,
        Figure.WRITES_AFTER, engine.startsWith("cairn") ? 2 * writesPerSecond : writesPerSecond,
        Figure.WRITE_AMPLIFICATION, 2.0));
  }

  /**
   * {@link #series()} with a second workload's runs of cairn-table, cairn-table-same and rocksdb
   * added to each round, their figure {@code figures[round][engine]} made into a run by {@code run}.
   */
  private static List<List<RunFigures>> seriesWith(double[][] figures, BiFunction<String, Double, RunFigures> run) {
    List<List<RunFigures>> rounds = new ArrayList<>();
    List<List<RunFigures>> reads = series();
    for (int i = 0; i < reads.size(); i++) {
      List<RunFigures> round = new ArrayList<>(reads.get(i));
      round.addAll(List.of(run.apply("cairn-table", figures[i][0]), run.apply("cairn-table-same", figures[i][1]),
          run.apply("rocksdb", figures[i][2])));
      rounds.add(round);
    }
    return rounds;
  }

  @Test
  void aWorkloadThatOnlyWritesIsJudgedOnItsWritesAndOnlyIt() {
    double[][] writes = {{50_000, 52_000, 100_000}, {48_000, 50_000, 90_000}, {50_000, 50_000, 110_000}};
    List<List<RunFigures>> rounds = seriesWith(writes, SeriesReportTest::load);
    List<String> engines = List.of("cairn-table", "cairn-table-same", "rocksdb");
    String table = SeriesReport.ratioTable(rounds, engines,
        List.of(Figure.READS, Figure.READS_AFTER, Figure.WRITE_AMPLIFICATION));
    assertTrue(table.startsWith("| workload | ratio | rounds | reads (scans, writes)/s | after 1/3 | write amp. |"),
        table);
    // cairn-table's writes/s over rocksdb's: 0.50, 0.53, 0.45; the A/A band 1.04, 1.04, 1.00. Its
    // steady window over rocksdb's: 1.00, 1.07, 0.91, which overlaps the band: no difference.
    assertTrue(row(table, "| load | cairn-table / rocksdb |").startsWith(
        "| load | cairn-table / rocksdb | 3 | 0.50 [0.45-0.53] worse | 1.00 [0.91-1.07] same |"), table);
    // A reading workload's paced writes are the same for every engine: no writes/s column there.
    String md = SeriesReport.render(rounds, engines, null);
    String zipfian = md.substring(md.indexOf("## zipfian"), md.indexOf("## load"));
    assertTrue(!zipfian.contains("writes/s"), zipfian);
    assertTrue(md.substring(md.indexOf("## load")).contains("| writes/s | writes/s after 1/3 |"), md);
  }

  /** A periodic run as its figures: reads/s and the whole run's p99 alike for all, the high phases' p99. */
  private static RunFigures periodic(String engine, double highPhaseP99) {
    return new RunFigures(engine, "periodic", true, Map.of(Figure.READS, 100.0, Figure.READ_P99, 100.0,
        Figure.HIGH_PHASE_READ_P99, highPhaseP99));
  }

  @Test
  void periodicIsAlsoJudgedOnItsHighPhasesP99AndNoOtherWorkloadIs() {
    double[][] highP99 = {{1000, 1050, 600}, {1000, 980, 650}, {1000, 1000, 500}};
    List<List<RunFigures>> rounds = seriesWith(highP99, SeriesReportTest::periodic);
    List<String> engines = List.of("cairn-table", "cairn-table-same", "rocksdb");
    String table = SeriesReport.ratioTable(rounds, engines,
        List.of(Figure.READS, Figure.READ_P99, Figure.HIGH_PHASE_READ_P99));
    assertTrue(table.startsWith("| workload | ratio | rounds | reads (scans)/s | read p99 | high-phase read p99 |"),
        table);
    // cairn-table's high-phase p99 over rocksdb's: 1.67, 1.54, 2.00, above the A/A band's 0.98-1.05: worse.
    assertTrue(row(table, "| periodic | cairn-table / rocksdb |").endsWith("| 1.67 [1.54-2.00] worse |"), table);
    // zipfian's runs have no high phase: the column is n/a there, and series.md's zipfian table lacks it.
    assertTrue(row(table, "| zipfian | cairn-table / rocksdb |").endsWith("| n/a |"), table);
    String md = SeriesReport.render(rounds, engines, null);
    assertTrue(!md.substring(md.indexOf("## zipfian"), md.indexOf("## periodic")).contains("high-phase"), md);
    assertTrue(md.substring(md.indexOf("## periodic")).contains("high-phase read p99"), md);
  }

  @Test
  void aPluginIsSetOverItsHostAtItsDefaultsAndAtItsBest() {
    List<String> pairs = SeriesAnalysis.pairs(List.of("hbase-default", "hbase-default-same", "hbase-best", "hbase-dlc",
        "hbase-buffer")).stream().map(p -> p[0] + " / " + p[1]).toList();
    assertEquals(List.of("hbase-dlc / hbase-default", "hbase-dlc / hbase-best", "hbase-buffer / hbase-default",
        "hbase-buffer / hbase-best", "hbase-buffer / hbase-dlc", "hbase-best / hbase-default"), pairs);
    assertEquals(List.of("cassandra-cairn / cassandra-ucs"),
        SeriesAnalysis.pairs(List.of("cassandra-ucs", "cassandra-ucs-same", "cassandra-cairn")).stream()
            .map(p -> p[0] + " / " + p[1]).toList());
  }

  @Test
  void aWorseRatioIsNamedWorse() {
    Band aa = new Band(1.0, 0.9, 1.1, 3);
    assertEquals(Verdict.WORSE, SeriesAnalysis.verdict(new Band(0.6, 0.5, 0.7, 3), Figure.READS, Optional.of(aa)));
    assertEquals(Verdict.WORSE, SeriesAnalysis.verdict(new Band(1.6, 1.5, 1.7, 3), Figure.READ_P99, Optional.of(aa)));
    assertEquals(Verdict.BETTER, SeriesAnalysis.verdict(new Band(0.6, 0.5, 0.7, 3), Figure.PEAK_SPACE, Optional.of(aa)));
    assertEquals(Verdict.SAME, SeriesAnalysis.verdict(new Band(1.2, 1.1, 1.3, 3), Figure.READS, Optional.of(aa)));
    assertEquals(Verdict.UNDECIDED, SeriesAnalysis.verdict(new Band(3, 3, 3, 3), Figure.READS, Optional.empty()));
  }

  @Test
  void theAABandCountsBothWaysUpSinceWhichTwinIsOnTopIsArbitrary() {
    // The twin ran 0.74-0.89x its engine: as much noise as 1.12-1.35x the other way up.
    Band aa = new Band(0.79, 0.74, 0.89, 3);
    assertEquals(Verdict.SAME, SeriesAnalysis.verdict(new Band(1.20, 1.03, 1.23, 3), Figure.READS, Optional.of(aa)));
    assertEquals(Verdict.BETTER, SeriesAnalysis.verdict(new Band(1.40, 1.36, 1.50, 3), Figure.READS, Optional.of(aa)));
    assertEquals(Verdict.WORSE, SeriesAnalysis.verdict(new Band(0.70, 0.60, 0.73, 3), Figure.READS, Optional.of(aa)));
    Band range = aa.noiseRange();
    assertEquals(0.74, range.min(), 1e-9);
    assertEquals(1 / 0.74, range.max(), 1e-9);
  }

  @Test
  void withoutAControlEveryVerdictIsUndecidedAndTheReportSaysWhy() {
    List<List<RunFigures>> rounds = List.of(round(run("cairn-table", 300, 10, 300), run("rocksdb", 100, 10, 100)));
    String md = SeriesReport.render(rounds, List.of("cairn-table", "rocksdb"), null);
    assertTrue(md.contains("**No A/A control in this series**"), md);
    assertTrue(row(md, "| cairn-table / rocksdb |").startsWith("| cairn-table / rocksdb | 1 | 3.00 undecided |"), md);
  }

  @Test
  void failedRunsAreCountedAndLeftOut() {
    List<List<RunFigures>> rounds = new ArrayList<>(series());
    rounds.set(1, round(RunResult.failed("rocksdb", "zipfian", "killed", Map.of()), run("cairn-table", 100, 10, 100),
        run("cairn-table-same", 95, 10, 95), run("cairn-dlsm", 250, 5, 250)));
    String md = SeriesReport.render(rounds, ENGINES, null);
    assertTrue(row(md, "| rocksdb |").startsWith("| rocksdb | 2/3 | 100 |"), md);
    assertTrue(row(md, "| cairn-dlsm / rocksdb |").startsWith("| cairn-dlsm / rocksdb | 2 | 2.50 [2.00-3.00] better |"),
        md);
  }

  @Test
  void theSteadyWindowLeavesOutTheFirstThirdAndSitsBesideTheWholeRun() {
    RunFigures r = RunFigures.of(run("cairn-table", 999, 1, 70));
    assertEquals(999, r.get(Figure.READS), 1e-9);
    assertEquals(70.0, r.get(Figure.READS_AFTER), 1e-9, "the sample at 10 s of 30 is not past the first third");
    assertEquals(0.1, r.get(Figure.MISSES_PER_READ), 1e-9);
  }

  @Test
  void theSeriesRendersAgainFromTheKeptRecordsGzippedOrNot(@TempDir Path out) throws Exception {
    List<List<RunResult>> results = List.of(
        List.of(run("cairn-table", 100, 10, 100), run("cairn-table-same", 110, 10, 110), run("rocksdb", 50, 20, 50)),
        List.of(run("rocksdb", 60, 20, 60), run("cairn-table", 100, 10, 100), run("cairn-table-same", 95, 10, 95)));
    List<List<RunFigures>> direct = new ArrayList<>();
    List<List<RunFigures>> kept = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      Path dir = out.resolve("round-" + (i + 1));
      Files.createDirectories(dir);
      Outputs.writeData(dir, results.get(i));
      if (i == 1) {
        // Kept under docs/results, a round's time series is gzipped (scripts/keep-series.sh).
        Path csv = dir.resolve("timeseries.csv");
        try (var gz = new java.util.zip.GZIPOutputStream(Files.newOutputStream(dir.resolve("timeseries.csv.gz")))) {
          gz.write(Files.readAllBytes(csv));
        }
        Files.delete(csv);
      }
      direct.add(results.get(i).stream().map(RunFigures::of).toList());
      kept.add(RunFigures.fromRecords(dir));
    }
    List<String> engines = List.of("cairn-table", "cairn-table-same", "rocksdb");
    assertEquals(SeriesReport.render(direct, engines, null), SeriesReport.render(kept, engines, null));
  }
}

package dev.cairn.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.run.FollowUp;
import dev.cairn.bench.run.RunResult;
import dev.cairn.bench.run.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** series.md: medians over rounds, ratios as the median of per-round ratios, failed runs left out. */
class SeriesReportTest {
  /** A finished run with the given reads/s and p99, and one sample before and two after the first third. */
  private static RunResult run(String engine, double readsPerSecond, double p99, double lateReads) {
    List<Sample> samples = new ArrayList<>();
    double[] reads = {1, lateReads, lateReads};
    for (int t = 0; t < 3; t++) {
      double elapsed = 10 * (t + 1);
      samples.add(new Sample(elapsed, engine, "zipfian", reads[t], 1000, 0, 0.5, 1, p99, 1, 0, 1, 0, 0, "", false,
          Double.NaN));
    }
    double n = Double.NaN;
    return new RunResult(engine, "zipfian", null, samples, readsPerSecond, 1000, 0, 0.5, 0.5, 0.5, 1, p99, 1, n, n, n,
        n, n, 0, 0, n, n, 30, List.of(), Map.of("seconds", 30), n, n, n, n, n, List.of(), FollowUp.NONE, n, n, n, n, n);
  }

  private static RunResult failed(String engine) {
    return RunResult.failed(engine, "zipfian", "killed", Map.of());
  }

  private static String row(String markdown, String start) {
    return markdown.lines().filter(l -> l.startsWith(start)).findFirst()
        .orElseThrow(() -> new AssertionError("no row starting '" + start + "' in:\n" + markdown));
  }

  @Test
  void ratioIsTheMedianOfPerRoundRatiosNotTheRatioOfMedians() {
    // Per-round ratios 2.0, 0.5, 1.5 -> median 1.5; the medians' ratio would be 200/100 = 2.0.
    List<List<RunResult>> rounds = List.of(
        List.of(run("cairn-table", 200, 10, 200), run("rocksdb", 100, 20, 100)),
        List.of(run("rocksdb", 400, 20, 400), run("cairn-table", 200, 40, 200)),
        List.of(run("cairn-table", 150, 30, 150), run("rocksdb", 100, 10, 100)));
    String md = SeriesReport.render(rounds, List.of("cairn-table", "rocksdb"));
    assertTrue(md.startsWith("# Series of 3 rounds"), md);
    assertTrue(md.contains("| engine | rounds ok | reads/s | reads/s after | scans/s | scans/s after | read p99 us"
        + " | hit ratio mean |\n|---|---|---|---|---|---|---|---|\n"), md);
    assertTrue(md.contains("| ratio | rounds | reads/s | reads/s after | scans/s | scans/s after | read p99 |\n"
        + "|---|---|---|---|---|---|---|\n"), md);
    assertEquals("| cairn-table | 3/3 | 200 (150-200) | 200 (150-200) | 0 | 0 | 30.0 (10.0-40.0) | 0.500 |",
        row(md, "| cairn-table |"));
    assertEquals("| rocksdb | 3/3 | 100 (100-400) | 100 (100-400) | 0 | 0 | 20.0 (10.0-20.0) | 0.500 |",
        row(md, "| rocksdb |"));
    // p99 ratios per round: 0.5, 2.0, 3.0 -> median 2.0; scans are 0/0 in every round: n/a.
    assertEquals("| cairn-table / rocksdb | 3 | 1.50 (0.50-2.00) | 1.50 (0.50-2.00) | n/a | n/a | 2.00 (0.50-3.00) |",
        row(md, "| cairn-table / rocksdb |"));
  }

  @Test
  void failedRunsAreCountedAndLeftOutOfMediansAndRatios() {
    List<List<RunResult>> rounds = List.of(
        List.of(run("cairn-table", 300, 10, 300), run("cairn-block", 330, 10, 330), run("rocksdb", 100, 10, 100)),
        List.of(run("cairn-block", 0, 10, 0), failed("rocksdb"), run("cairn-table", 100, 10, 100)));
    String md = SeriesReport.render(rounds, List.of("cairn-table", "cairn-block", "rocksdb"));
    assertEquals("| rocksdb | 1/2 | 100 | 100 | 0 | 0 | 10.0 | 0.500 |", row(md, "| rocksdb |"));
    assertTrue(row(md, "| cairn-table / rocksdb |").startsWith("| cairn-table / rocksdb | 1 | 3.00 |"), md);
    // A later Cairn engine is compared with the first Cairn engine listed, over both rounds.
    assertTrue(row(md, "| cairn-block / cairn-table |").startsWith("| cairn-block / cairn-table | 2 | 0.55 (0.00-1.10) |"),
        md);
  }

  @Test
  void afterFiguresLeaveOutTheFirstThirdOfTheRun() {
    RunResult r = run("cairn-table", 999, 1, 70);
    assertEquals(70.0, SeriesReport.readsAfter(r), 1e-9, "the sample at 10 s of 30 is not past the first third");
  }

  @Test
  void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
    assertEquals(2.5, SeriesReport.median(new double[] {1, 2, 3, 4}), 1e-12);
    assertEquals("2.5 (1.0-4.0)", SeriesReport.spread(new double[] {4, 1, 3, 2}, 1));
    assertEquals("n/a", SeriesReport.spread(new double[0], 1));
  }
}

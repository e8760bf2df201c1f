package dev.cairn.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.run.RunResult;
import dev.cairn.bench.run.RunResultFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A matrix stopped midway resumes at the round it was in: the cell's finished rounds are read
 * back, the unfinished one runs again, and a round recorded with another shape is refused. A
 * series of {@code compare --repeat} resumes the same way.
 */
class MatrixResumeTest {
  private static String[] matrix(Path out, String... more) {
    String[] own = {"matrix", "--out", out.toString(), "--devices", "page", "--workloads", "uniform",
        "--engines", "cairn-table,cairn-table-same", "--repeat", "2"};
    return RunnerSmokeTest.concat(RunnerSmokeTest.concat(own, RunnerSmokeTest.TINY), more);
  }

  @Test
  void aStoppedCellKeepsItsFinishedRoundsAndRunsTheRest(@TempDir Path out) throws Exception {
    assertResumesAfterRoundOne(matrix(out), out.resolve("page/uniform"));
  }

  @Test
  void aStoppedCompareSeriesKeepsItsFinishedRoundsAndRunsTheRest(@TempDir Path out) throws Exception {
    String[] compare = RunnerSmokeTest.concat(new String[] {"compare", "--out", out.toString(), "--workloads",
        "uniform", "--engines", "cairn-table,cairn-table-same", "--repeat", "2"}, RunnerSmokeTest.TINY);
    String first = assertResumesAfterRoundOne(compare, out);
    Path firstReport = out.resolve("round-1/report.md");

    // The same folder asked for another engine set: refused before anything runs.
    Files.delete(out.resolve("series.json"));
    String[] more = compare.clone();
    more[java.util.Arrays.asList(more).indexOf("cairn-table,cairn-table-same")] =
        "cairn-table,cairn-table-same,cairn-block";
    StringBuilder refused = new StringBuilder();
    assertEquals(BenchMain.EXIT_USAGE, OutputChecks.execute(refused, more), refused.toString());
    assertTrue(refused.toString().contains("round-1 holds a round of other engines or workloads"),
        refused.toString());
    assertEquals(first, Files.readString(firstReport));
    assertFalse(Files.exists(out.resolve("series.json")), "nothing written over the records");
  }

  @Test
  void aRoundStoppedMidwayKeepsTheRunsThatEndedAndDropsThemOnceWritten(@TempDir Path out) throws Exception {
    StringBuilder stderr = new StringBuilder();
    assertEquals(BenchMain.EXIT_OK, OutputChecks.execute(stderr, matrix(out)), stderr.toString());
    Path cell = out.resolve("page/uniform");
    assertFalse(Files.exists(cell.resolve("round-1/runs")), "a written round keeps no runs");
    // As a stop after round 2's run of cairn-table-same leaves it.
    Files.delete(cell.resolve("series.json"));
    Files.delete(cell.resolve("round-2/report.md"));
    String[] args = matrix(out);
    java.util.List<dev.cairn.bench.cli.DefaultMatrix.Cell> cells =
        dev.cairn.bench.cli.DefaultMatrix.cells(java.util.Arrays.copyOfRange(args, 1, args.length));
    RunConfig config = dev.cairn.bench.cli.Flags.parse("compare", cells.get(0).command().toArray(String[]::new))
        .config();
    java.util.Map<String, Object> recorded = new java.util.LinkedHashMap<>(config.asMap());
    recorded.put("jvm_pid", 1L);
    // Kept by a runner before the mixes: the key added later is absent, and its old value is the one asked for.
    recorded.remove("ycsb_mix_seconds");
    RunResult ended = RunResult.failed("cairn-table-same", "uniform", null, recorded);
    ended = new RunResult(ended.engine(), ended.workload(), null, java.util.List.of(), 12_345, 1000, 0, 0.5, 0.5, 0.5,
        1, 2, 3, 1.5, 1.2, 1e6, 1e5, 1e6, 1L << 20, 0, 1, 0, 0.4, java.util.List.of(), recorded, Double.NaN,
        Double.NaN, Double.NaN, Double.NaN, 1.3, java.util.List.of(), dev.cairn.bench.run.FollowUp.NONE, Double.NaN,
        Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    Files.createDirectories(cell.resolve("round-2/runs"));
    RunResultFile.write(cell.resolve("round-2/runs/cairn-table-same-uniform.result"), ended);

    StringBuilder again = new StringBuilder();
    assertEquals(BenchMain.EXIT_OK, OutputChecks.execute(again, matrix(out)), again.toString());
    assertTrue(again.toString().contains("cairn-table-same-uniform.result holds this run"), again.toString());
    String summary = Files.readString(cell.resolve("round-2/summary.json"));
    assertTrue(summary.contains("12345"), "the kept run stands in round 2: " + summary);
    assertFalse(Files.exists(cell.resolve("round-2/runs")), "dropped once round 2 is written");
  }

  @Test
  void aRoundRecordedWithAnotherShapeIsRefused(@TempDir Path out) throws Exception {
    StringBuilder stderr = new StringBuilder();
    assertEquals(BenchMain.EXIT_OK, OutputChecks.execute(stderr, matrix(out)), stderr.toString());
    Path cell = out.resolve("page/uniform");
    Files.delete(cell.resolve("series.json"));

    StringBuilder again = new StringBuilder();
    assertEquals(BenchMain.EXIT_USAGE, OutputChecks.execute(again, matrix(out, "--seed", "7")));
    assertTrue(again.toString().contains("round-1 holds a round run with another configuration"), again.toString());
    assertFalse(Files.exists(cell.resolve("series.json")), "nothing written over the records");
  }

  /**
   * A round recorded before a configuration key existed ({@link dev.cairn.bench.RunConfig#KEYS_ADDED_LATER})
   * is kept when the key has the value every such run had, and refused when it has another.
   */
  @Test
  void aRoundRecordedBeforeAKeyExistedIsKeptAtTheKeysOldValue(@TempDir Path out) throws Exception {
    StringBuilder stderr = new StringBuilder();
    assertEquals(BenchMain.EXIT_OK, OutputChecks.execute(stderr, matrix(out)), stderr.toString());
    Path cell = out.resolve("page/uniform");
    Files.delete(cell.resolve("series.json"));
    Files.delete(cell.resolve("round-2/report.md"));
    try (var files = Files.walk(cell.resolve("round-1"))) {
      for (Path json : files.filter(f -> f.getFileName().toString().endsWith(".json")).toList()) {
        String text = Files.readString(json);
        Files.writeString(json, text.replaceAll("\"compression_ratio\"\\s*:\\s*1(\\.0)?\\s*,?", ""));
      }
    }
    assertFalse(Files.readString(cell.resolve("round-1/summary.json")).contains("compression_ratio"));

    StringBuilder refused = new StringBuilder();
    assertEquals(BenchMain.EXIT_USAGE, OutputChecks.execute(refused, matrix(out, "--compression-ratio", "0.5")));
    assertTrue(refused.toString().contains("round-1 holds a round run with another configuration"), refused.toString());

    StringBuilder kept = new StringBuilder();
    assertEquals(BenchMain.EXIT_OK, OutputChecks.execute(kept, matrix(out)), kept.toString());
    assertTrue(kept.toString().contains("round-1 holds a finished round: kept"), kept.toString());
  }

  /**
   * Runs a series of two rounds ({@code args} into {@code series}), leaves it as a stop in round 2
   * does (round 2's report not written, no series), runs it again, and checks that round 1 was
   * kept, not run again, and round 2 and the series written. Returns round 1's report.
   */
  private static String assertResumesAfterRoundOne(String[] args, Path series) throws Exception {
    StringBuilder stderr = new StringBuilder();
    assertEquals(BenchMain.EXIT_OK, OutputChecks.execute(stderr, args), stderr.toString());
    Path firstReport = series.resolve("round-1/report.md");
    String first = Files.readString(firstReport);
    FileTime firstWritten = Files.getLastModifiedTime(firstReport);
    Files.delete(series.resolve("series.json"));
    Files.delete(series.resolve("round-2/report.md"));

    StringBuilder again = new StringBuilder();
    assertEquals(BenchMain.EXIT_OK, OutputChecks.execute(again, args), again.toString());
    assertTrue(again.toString().contains("round-1 holds a finished round: kept"), again.toString());
    assertFalse(again.toString().contains("round-2 holds a finished round"), again.toString());
    assertEquals(first, Files.readString(firstReport));
    assertEquals(firstWritten, Files.getLastModifiedTime(firstReport), "round 1 not run again");
    assertTrue(Files.isRegularFile(series.resolve("round-2/report.md")));
    assertTrue(Files.readString(series.resolve("series.json")).contains("cairn-table-same"));
    return first;
  }
}

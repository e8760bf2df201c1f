package dev.cairn.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A matrix stopped midway resumes at the round it was in: the cell's finished rounds are read
 * back, the unfinished one runs again, and a round recorded with another shape is refused.
 */
class MatrixResumeTest {
  private static String[] matrix(Path out, String... more) {
    String[] own = {"matrix", "--out", out.toString(), "--devices", "page", "--workloads", "uniform",
        "--engines", "cairn-table,cairn-table-same", "--repeat", "2"};
    return RunnerSmokeTest.concat(RunnerSmokeTest.concat(own, RunnerSmokeTest.TINY), more);
  }

  @Test
  void aStoppedCellKeepsItsFinishedRoundsAndRunsTheRest(@TempDir Path out) throws Exception {
    StringBuilder stderr = new StringBuilder();
    assertEquals(BenchMain.EXIT_OK, OutputChecks.execute(stderr, matrix(out)), stderr.toString());
    Path cell = out.resolve("page/uniform");
    Path firstReport = cell.resolve("round-1/report.md");
    String first = Files.readString(firstReport);
    FileTime firstWritten = Files.getLastModifiedTime(firstReport);
    // As a stop in round 2 leaves it: round 2's report not written yet, no series.
    Files.delete(cell.resolve("series.json"));
    Files.delete(cell.resolve("round-2/report.md"));

    StringBuilder again = new StringBuilder();
    assertEquals(BenchMain.EXIT_OK, OutputChecks.execute(again, matrix(out)), again.toString());
    assertTrue(again.toString().contains("round-1 holds a finished round: kept"), again.toString());
    assertFalse(again.toString().contains("round-2 holds a finished round"), again.toString());
    assertEquals(first, Files.readString(firstReport));
    assertEquals(firstWritten, Files.getLastModifiedTime(firstReport), "round 1 not run again");
    assertTrue(Files.isRegularFile(cell.resolve("round-2/report.md")));
    assertTrue(Files.readString(cell.resolve("series.json")).contains("cairn-table"));
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
}

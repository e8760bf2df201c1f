package dev.cairn.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.report.JsonParser;
import dev.cairn.bench.workload.Workloads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The smoke of every workload on Cairn's own engine, kept apart from the peers' so that a failure
 * of Cairn is reported as Cairn's, not as the runner's.
 */
class CairnEngineSmokeTest {
  @Test
  void cairnTableRunsEveryWorkload(@TempDir Path out) throws Exception {
    StringBuilder stderr = new StringBuilder();
    int code = OutputChecks.execute(stderr, RunnerSmokeTest.concat(new String[] {"compare", "--engines",
        "cairn-table", "--workloads", String.join(",", Workloads.names()), "--out", out.toString()},
        RunnerSmokeTest.TINY));
    // Status first: a failed run has no timeseries rows, and its error says why.
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> summary =
        (List<Map<String, Object>>) JsonParser.parse(Files.readString(out.resolve("summary.json")));
    for (Map<String, Object> e : summary) {
      assertEquals("ok", e.get("status"), "cairn-table run failed: " + e.get("workload") + ": " + e.get("error"));
    }
    assertEquals(BenchMain.EXIT_OK, code, "compare failed:\n" + stderr);
    OutputChecks.assertWellFormed(out, List.of("cairn-table"), Workloads.names());
  }

  @Test
  void cairnTableWithDlcRunsPeriodicAndReportsItsLoadClass(@TempDir Path out) throws Exception {
    StringBuilder stderr = new StringBuilder();
    int code = OutputChecks.execute(stderr, RunnerSmokeTest.concat(new String[] {"compare", "--engines",
        "cairn-table+dlc", "--workloads", "periodic", "--out", out.toString()}, RunnerSmokeTest.TINY));
    assertEquals(BenchMain.EXIT_OK, code, "compare failed:\n" + stderr);
    List<Map<String, Object>> entries =
        OutputChecks.assertWellFormed(out, List.of("cairn-table+dlc"), List.of("periodic"));
    assertEquals("ok", entries.get(0).get("status"), "cairn-table+dlc failed: " + entries.get(0).get("error"));
    for (String row : Files.readAllLines(out.resolve("timeseries.csv")).subList(1, 2)) {
      String[] cells = row.split(",", -1);
      assertTrue(cells[13].equals("HIGH") || cells[13].equals("LOW"), "load_class of a DLC run: " + row);
    }
  }

  /**
   * A candidate default is the shipped options with one lever changed: the buffer's engine runs a
   * compaction buffer, the DLC one the DLC scheduler, the LZ4 one compresses though the run asks
   * for no codec, and all keep the shipped flush caching.
   */
  @Test
  void theCandidateDefaultsChangeOneLeverOfTheShippedOptions(@TempDir Path out) throws Exception {
    StringBuilder stderr = new StringBuilder();
    List<String> engines = List.of("cairn-default+buffer", "cairn-default+dlc", "cairn-default+lz4");
    int code = OutputChecks.execute(stderr, RunnerSmokeTest.concat(new String[] {"compare", "--engines",
        String.join(",", engines), "--workloads", "latest-rangehot", "--compression", "none",
        "--compression-ratio", "0.5", "--out", out.toString()}, RunnerSmokeTest.TINY));
    assertEquals(BenchMain.EXIT_OK, code, "compare failed:\n" + stderr);
    for (Map<String, Object> e : OutputChecks.assertWellFormed(out, engines, List.of("latest-rangehot"))) {
      assertEquals("ok", e.get("status"), e.get("engine") + " failed: " + e.get("error"));
    }
    String buffer = Files.readString(out.resolve("data/cairn-default+buffer-latest-rangehot-stats.txt"));
    String dlc = Files.readString(out.resolve("data/cairn-default+dlc-latest-rangehot-stats.txt"));
    String lz4 = Files.readString(out.resolve("data/cairn-default+lz4-latest-rangehot-stats.txt"));
    assertTrue(buffer.contains("compaction buffer"), buffer);
    assertFalse(buffer.contains("dlc "), buffer);
    assertTrue(dlc.contains("dlc "), dlc);
    assertFalse(dlc.contains("compaction buffer"), dlc);
    assertTrue(lz4.contains("compressed data blocks"), lz4);
    assertFalse(buffer.contains("compressed data blocks"), buffer);
    for (String stats : List.of(buffer, dlc, lz4)) {
      assertTrue(stats.lines().anyMatch(l -> l.startsWith("flush caching") && l.contains("adaptive")), stats);
    }
  }

  @Test
  void theTwoPhaseEnginesRunTheLatestWorkloadsTheQuietOneAndRangeQueries(@TempDir Path out) throws Exception {
    StringBuilder stderr = new StringBuilder();
    List<String> engines = List.of("cairn-table-2pc", "cairn-dlsm");
    List<String> workloads = List.of("latest-rangehot", "latest-rangehot-quiet", "rangehot-scan");
    int code = OutputChecks.execute(stderr, RunnerSmokeTest.concat(new String[] {"compare", "--engines",
        String.join(",", engines), "--workloads", String.join(",", workloads), "--out", out.toString()},
        RunnerSmokeTest.TINY));
    assertEquals(BenchMain.EXIT_OK, code, "compare failed:\n" + stderr);
    for (Map<String, Object> e : OutputChecks.assertWellFormed(out, engines, workloads)) {
      assertEquals("ok", e.get("status"), e.get("engine") + " " + e.get("workload") + " failed: " + e.get("error"));
    }
  }
}

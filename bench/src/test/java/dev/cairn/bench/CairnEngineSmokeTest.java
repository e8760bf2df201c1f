package dev.cairn.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

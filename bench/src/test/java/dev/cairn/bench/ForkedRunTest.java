package dev.cairn.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner's default: each (engine, workload) in a fresh JVM, its result brought back into the
 * one report. The smoke tests run in the test's JVM ({@code --same-jvm}) to stay quick.
 */
class ForkedRunTest {
  private static String[] withoutSameJvm(String[] flags) {
    return Arrays.stream(flags).filter(f -> !f.equals("--same-jvm")).toArray(String[]::new);
  }

  @Test
  void eachRunHappensInItsOwnJvmAndLandsInTheReport(@TempDir Path out) throws Exception {
    StringBuilder stderr = new StringBuilder();
    int code = OutputChecks.execute(stderr, RunnerSmokeTest.concat(new String[] {"compare", "--engines",
        "cairn-table,rocksdb", "--workloads", "load", "--out", out.toString()}, withoutSameJvm(RunnerSmokeTest.TINY)));
    assertEquals(BenchMain.EXIT_OK, code, "compare failed:\n" + stderr);
    List<Map<String, Object>> entries =
        OutputChecks.assertWellFormed(out, List.of("cairn-table", "rocksdb"), List.of("load"));
    for (Map<String, Object> e : entries) {
      assertEquals("ok", e.get("status"), "run failed: " + e);
      Map<?, ?> config = (Map<?, ?>) e.get("config");
      assertEquals(2000.0, config.get("records"), "the child saw the parent's flags");
      assertNotEquals((double) ProcessHandle.current().pid(), config.get("jvm_pid"), "ran in the test's JVM: " + e);
    }
    assertNotEquals(((Map<?, ?>) entries.get(0).get("config")).get("jvm_pid"),
        ((Map<?, ?>) entries.get(1).get("config")).get("jvm_pid"), "one JVM for both runs");
    // The child's progress lines reach the parent's progress stream.
    assertTrue(stderr.toString().contains("[cairn-table load]"), stderr.toString());
    try (var left = Files.list(out.resolve("data"))) {
      assertTrue(left.noneMatch(p -> p.getFileName().toString().startsWith("run-result-")), "a result file was left");
    }
  }

  /** Forked, as users run it: a child given --repeat would refuse it (it belongs to compare). */
  @Test
  void repeatedCompareWritesEachRoundInItsOwnOrderAndTheSeriesMedians(@TempDir Path out) throws Exception {
    StringBuilder stderr = new StringBuilder();
    int code = OutputChecks.execute(stderr, RunnerSmokeTest.concat(new String[] {"compare", "--engines",
        "cairn-table,cairn-table-same,rocksdb", "--workloads", "load", "--repeat", "2", "--out", out.toString()},
        withoutSameJvm(RunnerSmokeTest.TINY)));
    assertEquals(BenchMain.EXIT_OK, code, "compare failed:\n" + stderr);
    List<String> engines = List.of("cairn-table", "cairn-table-same", "rocksdb");
    List<Map<String, Object>> first = OutputChecks.assertWellFormed(out.resolve("round-1"), engines, List.of("load"));
    List<Map<String, Object>> second = OutputChecks.assertWellFormed(out.resolve("round-2"), engines, List.of("load"));
    assertEquals(engines, first.stream().map(e -> e.get("engine")).toList());
    assertEquals(List.of("cairn-table-same", "rocksdb", "cairn-table"), second.stream().map(e -> e.get("engine")).toList(),
        "round 2 runs the engines in the rotated order");
    String series = Files.readString(out.resolve("series.md"));
    assertTrue(series.startsWith("# Series of 2 rounds"), series);
    assertTrue(series.contains("| cairn-table | 2/2 |") && series.contains("| rocksdb | 2/2 |"), series);
    assertTrue(series.contains("| A/A band: cairn-table-same / cairn-table | 2 |"), series);
    assertTrue(series.contains("| cairn-table / rocksdb | 2 |"), series);
    assertTrue(Files.exists(out.resolve("series.json")), "the series as data, for the generated summaries");
    // The same series rendered again from the kept records alone.
    String again = series;
    assertEquals(BenchMain.EXIT_OK, OutputChecks.execute(stderr, "series", "--out", out.toString()));
    assertEquals(again, Files.readString(out.resolve("series.md")));
    assertFalse(Files.exists(out.resolve("report.md")), "the rounds' reports are in their own folders");
  }
}

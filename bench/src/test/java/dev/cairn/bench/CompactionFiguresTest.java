package dev.cairn.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.engine.Engines;
import dev.cairn.bench.report.Figure;
import dev.cairn.bench.report.Outputs;
import dev.cairn.bench.report.RunFigures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The figures of issues 4 and 5 on tiny data: per-level write amplification, peak space
 * amplification, the mixed and scan phases after {@code load} and {@code update}, the simulated
 * slow device, and the buffer column. Values are checked for presence and sanity, never timing.
 */
class CompactionFiguresTest {
  /**
   * One Cairn engine per compaction style, level layout and buffer construction (the registry's
   * other variants change a setting of one of these), and RocksDB. Running every variant cost two
   * minutes of the test run and covered no code path these do not.
   */
  private static final List<String> ENGINES = List.of("cairn-table", "cairn-table+dlc", "cairn-block",
      "cairn-table-2pc", "cairn-table-idle", "cairn-buffer", "cairn-dlsm", "cairn-dlsm-scans", "rocksdb");
  private static final List<String> WORKLOADS = List.of("load", "update");

  @Test
  void loadAndUpdateReportTheCompactionStyleFigures(@TempDir Path out) throws Exception {
    StringBuilder stderr = new StringBuilder();
    int code = OutputChecks.execute(stderr, RunnerSmokeTest.concat(new String[] {"compare", "--engines",
        String.join(",", ENGINES), "--workloads", String.join(",", WORKLOADS), "--out", out.toString(),
        "--mixed-seconds", "0.5", "--read-seconds", "0.5", "--scan-seconds", "0.5", "--seek-delay-ms", "0.01"},
        RunnerSmokeTest.TINY));
    assertEquals(BenchMain.EXIT_OK, code, "compare failed:\n" + stderr);
    List<Map<String, Object>> entries = OutputChecks.assertWellFormed(out, ENGINES, WORKLOADS);
    for (Map<String, Object> e : entries) {
      String run = e.get("engine") + "/" + e.get("workload") + ": " + e;
      assertEquals("ok", e.get("status"), run);
      assertTrue((Double) e.get("mixed_reads_per_s") > 0, run);
      assertTrue((Double) e.get("mixed_writes_per_s") > 0, run);
      assertTrue((Double) e.get("scan_after_ops_per_s") > 0, run);
      assertTrue((Double) e.get("read_after_ops_per_s") > 0, run);
      double readHit = (Double) e.get("read_after_hit_ratio");
      assertTrue(readHit >= 0 && readHit <= 1, run);
      double hit = (Double) e.get("mixed_hit_ratio");
      assertTrue(hit >= 0 && hit <= 1, run);
      assertTrue((Double) e.get("mixed_cache_misses") >= 0, run);
      double peak = (Double) e.get("space_amplification_peak");
      assertTrue(peak > 0, run);
      List<?> byLevel = assertInstanceOf(List.class, e.get("write_amplification_by_level"), run);
      assertFalse(byLevel.isEmpty(), run);
      assertTrue((Double) byLevel.get(0) > 0, "level 0 receives the flushes: " + run);
      String engine = String.valueOf(e.get("engine"));
      if (engine.startsWith("cairn-buffer") || engine.startsWith("cairn-dlsm")) { // the BUFFER-style engines
        assertTrue((Double) e.get("buffer_bytes_max") >= 0, "a buffer engine reports its size: " + run);
      } else {
        assertNull(e.get("buffer_bytes_mean"), "only the buffer engines have a buffer: " + run);
      }
      Map<?, ?> config = (Map<?, ?>) e.get("config");
      assertEquals(0.01, config.get("seek_delay_ms"));
      List<?> unhonoured = (List<?>) e.get("unhonoured_settings");
      if (Engines.isCairn((String) e.get("engine"))) {
        assertTrue((Double) e.get("simulated_seeks") >= 0, run);
        assertTrue((Double) e.get("mixed_simulated_seeks") > 0, "uniform reads of tables seek: " + run);
        assertTrue(unhonoured.isEmpty(), run);
      } else {
        assertNull(e.get("simulated_seeks"), run);
        assertNull(e.get("mixed_simulated_seeks"), run);
        assertTrue(unhonoured.stream().anyMatch(u -> u.toString().startsWith("seek-delay-ms")), run);
      }
    }
    String report = Files.readString(out.resolve("report.md"));
    assertTrue(report.contains("write amp by level") && report.contains("space amp peak")
        && report.contains("mixed hit ratio") && report.contains("scans/s after"), report);
  }

  /** Issue 5's two device settings on Cairn: direct reads alone, and direct reads on the slow device. */
  @Test
  void cairnRunsRangehotWithDirectReadsAndOnTheSlowDevice(@TempDir Path out) throws Exception {
    for (String delay : List.of("0", "0.05")) {
      Path dir = out.resolve("delay-" + delay);
      StringBuilder stderr = new StringBuilder();
      int code = OutputChecks.execute(stderr, RunnerSmokeTest.concat(new String[] {"run", "--engine", "cairn-table",
          "--workload", "rangehot", "--out", dir.toString(), "--direct-io", "--seek-delay-ms", delay},
          RunnerSmokeTest.TINY));
      Map<String, Object> e = OutputChecks.assertWellFormed(dir, List.of("cairn-table"), List.of("rangehot")).get(0);
      assertEquals("ok", e.get("status"), "direct reads, seek delay " + delay + ": " + e.get("error"));
      assertEquals(BenchMain.EXIT_OK, code, stderr.toString());
      assertTrue((Double) e.get("read_ops_per_s") > 0, e.toString());
      if (delay.equals("0")) {
        assertNull(e.get("simulated_seeks"), "no slow device without the flag");
      } else {
        assertTrue((Double) e.get("simulated_seeks") > 0, "reads of tables seek: " + e);
      }
    }
  }

  /**
   * BlockDB's mixes after a load: each has its requests per second, the writing ones a write
   * amplification of their own, the read-only one none; the series figures read them back from
   * summary.json.
   */
  @Test
  void theMixesAfterALoadReportTheirRatesAndTheirWriteAmplification(@TempDir Path out) throws Exception {
    StringBuilder stderr = new StringBuilder();
    int code = OutputChecks.execute(stderr, RunnerSmokeTest.concat(new String[] {"run", "--engine", "cairn-block",
        "--workload", "load", "--out", out.toString(), "--ycsb-mix-seconds", "0.4"}, RunnerSmokeTest.TINY));
    assertEquals(BenchMain.EXIT_OK, code, "run failed:\n" + stderr);
    Map<String, Object> e = OutputChecks.assertWellFormed(out, List.of("cairn-block"), List.of("load")).get(0);
    for (String mix : List.of("write_heavy", "balanced", "read_heavy", "read_only")) {
      assertTrue((Double) e.get("mix_" + mix + "_ops_per_s") > 0, mix + ": " + e);
      double hit = (Double) e.get("mix_" + mix + "_hit_ratio");
      assertTrue(hit >= 0 && hit <= 1, mix + ": " + e);
    }
    for (String mix : List.of("write_heavy", "balanced", "read_heavy")) {
      assertTrue((Double) e.get("mix_" + mix + "_write_amplification") > 0, mix + " writes: " + e);
    }
    assertNull(e.get("mix_read_only_write_amplification"), "the read-only mix writes nothing: " + e);
    RunFigures figures = RunFigures.fromRecords(out).get(0);
    assertEquals((Double) e.get("mix_balanced_ops_per_s"), figures.get(Figure.MIX_BALANCED), 1e-9);
    assertEquals((Double) e.get("mix_write_heavy_write_amplification"), figures.get(Figure.MIX_WRITE_HEAVY_WA), 1e-9);
  }

  @Test
  void withoutTheNewFlagsTheFollowUpFiguresAreNullAndTheBufferColumnIsLastAndEmpty(@TempDir Path out)
      throws Exception {
    StringBuilder stderr = new StringBuilder();
    int code = OutputChecks.execute(stderr, RunnerSmokeTest.concat(new String[] {"run", "--engine", "cairn-table",
        "--workload", "update", "--out", out.toString()}, RunnerSmokeTest.TINY));
    assertEquals(BenchMain.EXIT_OK, code, "run failed:\n" + stderr);
    Map<String, Object> e = OutputChecks.assertWellFormed(out, List.of("cairn-table"), List.of("update")).get(0);
    for (String field : List.of("mixed_cache_misses", "mixed_hit_ratio", "mixed_reads_per_s", "mixed_writes_per_s",
        "scan_after_ops_per_s", "read_after_ops_per_s", "read_after_hit_ratio", "buffer_bytes_mean",
        "buffer_bytes_max", "simulated_seeks", "mixed_simulated_seeks", "mix_write_heavy_ops_per_s",
        "mix_balanced_write_amplification", "mix_read_only_ops_per_s", "mix_read_heavy_hit_ratio")) {
      assertTrue(e.containsKey(field) && e.get(field) == null, field + " of a plain run: " + e);
    }
    assertEquals("buffer_bytes", Outputs.CSV_COLUMNS.get(Outputs.CSV_COLUMNS.size() - 1));
    for (String row : Files.readAllLines(out.resolve("timeseries.csv")).subList(1, 2)) {
      assertTrue(row.endsWith(","), "a run without a buffer leaves buffer_bytes empty: " + row);
    }
  }
}

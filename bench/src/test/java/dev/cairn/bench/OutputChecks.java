package dev.cairn.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.report.JsonParser;
import dev.cairn.bench.report.Outputs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Checks that an output directory honours the output contract of issue 3. */
final class OutputChecks {
  private OutputChecks() {}

  /** Runs the CLI in-process; returns its exit code, with stderr kept for failure messages. */
  static int execute(StringBuilder stderr, String... args) throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = BenchMain.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    stderr.append(err.toString(StandardCharsets.UTF_8));
    return code;
  }

  /**
   * Asserts the files exist and are well-formed and that every (engine, workload) pair has
   * timeseries rows and a summary entry; returns the summary entries.
   */
  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> assertWellFormed(Path out, List<String> engines, List<String> workloads)
      throws IOException {
    List<String> lines = Files.readAllLines(out.resolve("timeseries.csv"));
    assertEquals(String.join(",", Outputs.CSV_COLUMNS), lines.get(0), "CSV header");
    assertTrue(lines.size() > 1, "timeseries.csv has no rows");
    Set<String> pairsWithRows = new HashSet<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",", -1);
      assertEquals(Outputs.CSV_COLUMNS.size(), cells.length, "columns of row: " + line);
      Double.parseDouble(cells[0]);
      Double.parseDouble(cells[3]);
      Long.parseLong(cells[11]);
      if (!cells[12].isEmpty()) {
        assertTrue(Integer.parseInt(cells[12]) >= 0, "l0_files of row: " + line);
      }
      assertTrue(List.of("", "HIGH", "LOW").contains(cells[13]), "load_class of row: " + line);
      if (!cells[14].isEmpty()) {
        assertTrue(Double.parseDouble(cells[14]) >= 0, "buffer_bytes of row: " + line);
      }
      pairsWithRows.add(cells[1] + "/" + cells[2]);
    }

    Object parsed = JsonParser.parse(Files.readString(out.resolve("summary.json")));
    assertTrue(parsed instanceof List, "summary.json is not an array");
    List<Map<String, Object>> entries = (List<Map<String, Object>>) parsed;
    assertEquals(engines.size() * workloads.size(), entries.size(), "summary entries");
    for (Map<String, Object> e : entries) {
      for (String field : Outputs.SUMMARY_FIELDS) {
        assertTrue(e.containsKey(field), "summary entry lacks " + field + ": " + e);
      }
      assertTrue(e.get("config") instanceof Map, "config is an object");
      for (String field : List.of("high_phase_read_p99_us", "high_phase_ops_per_s", "high_phase_drops",
          "space_amplification_peak", "write_amplification_by_level", "mixed_cache_misses", "mixed_hit_ratio",
          "mixed_reads_per_s", "mixed_writes_per_s", "scan_after_ops_per_s", "buffer_bytes_mean", "buffer_bytes_max",
          "simulated_seeks", "mixed_simulated_seeks")) {
        assertTrue(e.containsKey(field), "summary entry lacks " + field + ": " + e);
      }
      if ("periodic".equals(e.get("workload")) && "ok".equals(e.get("status"))) {
        // The smoke runs are shorter than a high phase: every second is a high-phase second.
        assertTrue(e.get("high_phase_ops_per_s") instanceof Double, "periodic high-phase ops: " + e);
        assertTrue(e.get("high_phase_drops") instanceof Double, "periodic high-phase drops: " + e);
      }
    }
    for (String engine : engines) {
      for (String workload : workloads) {
        assertTrue(pairsWithRows.contains(engine + "/" + workload), "no timeseries rows for " + engine + "/" + workload);
        assertTrue(entries.stream().anyMatch(e -> engine.equals(e.get("engine")) && workload.equals(e.get("workload"))),
            "no summary entry for " + engine + "/" + workload);
      }
    }

    String report = Files.readString(out.resolve("report.md"));
    assertTrue(report.startsWith("# Workload runner report"), "report.md heading");
    for (String workload : workloads) {
      assertTrue(report.contains("## " + workload), "report.md has no section for " + workload);
      assertNonEmptyPng(out.resolve("hit_ratio_" + workload + ".png"));
      assertNonEmptyPng(out.resolve("read_throughput_" + workload + ".png"));
    }
    assertNonEmptyPng(out.resolve("write_amplification.png"));
    return entries;
  }

  private static void assertNonEmptyPng(Path png) throws IOException {
    assertTrue(Files.exists(png), png + " missing");
    byte[] head = Files.readAllBytes(png);
    assertTrue(head.length > 100, png + " is empty");
    assertEquals((byte) 0x89, head[0], png + " is not a PNG");
    assertEquals('P', head[1], png + " is not a PNG");
  }
}

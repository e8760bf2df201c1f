package dev.cairn.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.run.FollowUp;
import dev.cairn.bench.run.RunResult;
import dev.cairn.bench.run.Sample;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The outputs of the buffer hook and the per-level figures, from synthetic results: an engine
 * that reports a compaction buffer (as cairn-buffer will) gets its column, summary fields and
 * plot; one that does not leaves them empty.
 */
class BufferAndLevelOutputsTest {
  private static RunResult run(String engine, double bufferBytes, List<Double> byLevel) {
    List<Sample> samples = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      samples.add(new Sample(i, engine, "rangehot", 100, 10, 0, 0.9, 5, 50, 20, 1000 * i, 4 << 20, 1, 2, "", false,
          bufferBytes * i));
    }
    return new RunResult(engine, "rangehot", null, samples, 100, 10, 0, 0.9, 0.9, 0.9, 5, 50, 20, 3, 1.5, 3e6, 1e6,
        1e6, 4 << 20, 0, 1, 2, 3, List.of(), Map.of("records", 1), Double.NaN, Double.NaN, Double.NaN, Double.NaN, 1.8, byLevel,
        FollowUp.NONE, bufferBytes * 2, bufferBytes * 3, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
  }

  @Test
  void anEngineWithABufferGetsItsColumnFieldsAndPlot(@TempDir Path out) throws Exception {
    List<RunResult> results = List.of(run("cairn-buffer", 1 << 20, List.of(1.0, 2.5, 4.0)),
        run("rocksdb", Double.NaN, List.of(1.0, 3.0)));
    Outputs.writeAll(out, results);
    List<String> rows = Files.readAllLines(out.resolve("timeseries.csv"));
    assertTrue(rows.get(0).endsWith(",load_class,buffer_bytes"), rows.get(0));
    assertTrue(rows.get(1).endsWith("," + (1 << 20)), "buffer bytes of the first second: " + rows.get(1));
    assertTrue(rows.get(4).endsWith(","), "an engine without a buffer leaves the cell empty: " + rows.get(4));
    String json = Files.readString(out.resolve("summary.json"));
    assertTrue(json.contains("\"buffer_bytes_max\": " + 3 * (1 << 20)), json);
    assertTrue(json.contains("\"write_amplification_by_level\": [\n      1,\n      2.5,\n      4\n    ]"), json);
    assertTrue(Files.size(out.resolve("buffer_bytes_rangehot.png")) > 100);
    assertTrue(Files.size(out.resolve("write_amplification_by_level_rangehot.png")) > 100);
    assertTrue(Files.size(out.resolve("db_bytes_rangehot.png")) > 100);
    String report = Files.readString(out.resolve("report.md"));
    assertTrue(report.contains("| cairn-buffer | 1.00, 2.50, 4.00 | 3.0 | 1.50 | 1.80 | 2.0 | 3.0 |"), report);
    assertTrue(report.contains("![buffer_bytes_rangehot.png](buffer_bytes_rangehot.png)"), report);
  }

  @Test
  void withoutABufferThereIsNoBufferPlotAndUnknownLevelsAreNull(@TempDir Path out) throws Exception {
    Outputs.writeAll(out, List.of(run("leveldb-java", Double.NaN, List.of())));
    assertFalse(Files.exists(out.resolve("buffer_bytes_rangehot.png")));
    assertFalse(Files.exists(out.resolve("write_amplification_by_level_rangehot.png")));
    String json = Files.readString(out.resolve("summary.json"));
    assertTrue(json.contains("\"write_amplification_by_level\": null"), json);
    assertTrue(json.contains("\"buffer_bytes_mean\": null"), json);
    assertEquals(Outputs.CSV_COLUMNS.size(), Files.readAllLines(out.resolve("timeseries.csv")).get(1).split(",", -1).length);
  }
}

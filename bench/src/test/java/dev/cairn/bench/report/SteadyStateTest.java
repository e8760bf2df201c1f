package dev.cairn.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.BenchMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code summarize}: figures from the samples after the cut only, n/a where a column is empty, clear refusals. */
class SteadyStateTest {
  @TempDir Path dir;

  private static final String HEADER = String.join(",", Outputs.CSV_COLUMNS);

  /** A timeseries row in {@link Outputs#CSV_COLUMNS}' order (summarize refuses a row of another width). */
  private static String row(double t, String engine, double reads, String hit, String buffer) {
    return t + "," + engine + ",rangehot," + reads + ",1000,0," + hit + ",1,2,3,0," + (100L << 20) + ",1,," + buffer;
  }

  private int summarize(String after, StringBuilder out, StringBuilder err) throws Exception {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code = BenchMain.execute(new String[] {"summarize", "--out", dir.toString(), "--after", after},
        new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
    out.append(o.toString(StandardCharsets.UTF_8));
    err.append(e.toString(StandardCharsets.UTF_8));
    return code;
  }

  @Test
  void onlySamplesAfterTheCutCountAndEmptyColumnsAreNa() throws Exception {
    Files.writeString(dir.resolve("timeseries.csv"), String.join("\n", HEADER,
        row(1, "cairn-buffer", 100, "0.1", String.valueOf(1 << 20)),   // warm-up: left out
        row(11, "cairn-buffer", 1000, "0.9", String.valueOf(2 << 20)),
        row(12, "cairn-buffer", 3000, "0.7", String.valueOf(4 << 20)),
        row(11, "leveldb", 500, "", ""),
        row(12, "leveldb", 700, "", "")) + "\n");
    StringBuilder out = new StringBuilder();
    assertEquals(BenchMain.EXIT_OK, summarize("10", out, new StringBuilder()));
    String md = out.toString();
    assertTrue(md.contains("| cairn-buffer | 2 | 0.800 | 0.700 | 2,000 | 1,000 | 3.0 | 4.0 | 100.0 |"), md);
    assertTrue(md.contains("| leveldb | 2 | n/a | n/a | 600 | 1,000 | n/a | n/a | 100.0 |"), md);
    assertEquals(md, Files.readString(dir.resolve("steady.md")));
  }

  @Test
  void badInputIsRefusedWithTheProblemNamed() throws Exception {
    StringBuilder err = new StringBuilder();
    assertEquals(BenchMain.EXIT_USAGE, summarize("10", new StringBuilder(), err));
    assertTrue(err.toString().contains("no timeseries.csv"), err.toString());

    Files.writeString(dir.resolve("timeseries.csv"), HEADER + "\n" + row(5, "cairn-table", 1, "0.5", "") + "\n");
    err.setLength(0);
    assertEquals(BenchMain.EXIT_USAGE, summarize("10", new StringBuilder(), err));
    assertTrue(err.toString().contains("no sample"), err.toString());
    err.setLength(0);
    assertEquals(BenchMain.EXIT_USAGE, summarize("-1", new StringBuilder(), err));
    assertTrue(err.toString().contains(">= 0"), err.toString());
    err.setLength(0);
    assertEquals(BenchMain.EXIT_USAGE, summarize("soon", new StringBuilder(), err));
    assertTrue(err.toString().contains("'soon'"), err.toString());

    Files.writeString(dir.resolve("timeseries.csv"), "elapsed_s,engine\n1,x\n");
    err.setLength(0);
    assertEquals(BenchMain.EXIT_USAGE, summarize("0", new StringBuilder(), err));
    assertTrue(err.toString().contains("no column"), err.toString());
  }
}

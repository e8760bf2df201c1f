package dev.cairn.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.run.FollowUp;
import dev.cairn.bench.run.RunResult;
import dev.cairn.bench.run.Sample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The matrix's judgement of the default, cell by cell: which named configuration is the best,
 * each aim's word from the per-round ratios and the A/A band, and a partial matrix counted as one.
 */
class MatrixTableTest {

  @Test
  void eachCellIsJudgedOnItsOwnFigureAgainstTheBestNamedConfigurationTheBestPeerAndTheDefaultBefore(
      @TempDir Path matrix) throws Exception {
    // rangehot: cairn-dlsm reads 1.2x the default in every round and the A/A twins agree exactly,
    // so 0.83x is a loss beyond the noise; RocksDB at its best reads less.
    writeCell(matrix.resolve("slow/rangehot"), "rangehot", round -> reads(100, 100, 100, 120, 90, 80));
    // zipfian, on the other device: the twins differ by up to 1.25x, so the default's 0.87x the
    // best cannot be told from it.
    double[] twin = {100, 80, 125};
    writeCell(matrix.resolve("page/zipfian"), "zipfian", round -> reads(100, twin[round], 100, 115, 90, 80));
    // load: writes alone, the default first everywhere.
    writeCell(matrix.resolve("slow/load"), "load", round -> writes(1000, 1000, 950, 900, 800, 700));

    String table = MatrixTable.render(matrix);

    assertTrue(table.contains("| slow | rangehot | reads/s | 100 | cairn-dlsm, 120 | 0.83 worse, missed"
        + " | 1.25 better, met | 1.00 same, met | 1.00; 1.00 over 6 rounds |"), table);
    assertTrue(table.contains("| page | zipfian | reads/s | 100 | cairn-dlsm, 115 | 0.87 same, no difference"
        + " | 1.25 same, met | 1.00 same, met | 1.00 [0.80-1.25]; 1.00 [0.80-1.25] over 3 rounds |"), table);
    assertTrue(table.contains("| slow | load | writes/s | 1,000 | cairn-table, 950 | 1.05 better, met"
        + " | 1.43 better, met | 1.05 better, met | 1.00; 1.00 over 6 rounds |"), table);
    assertTrue(table.contains("| page | uniform | not run yet |"), table);
    assertTrue(table.endsWith("Every aim met in 1 of the 3 cells run (13 of 16 not run yet).\n"), table);
  }

  @Test
  void aCellIsJudgedAgainstItsDevicesPooledNoiseAndSaysWhereItsOwnTwinsAloneDiffer(@TempDir Path matrix)
      throws Exception {
    // The same rangehot figures on both devices: twins that agree exactly, the default 0.83x
    // cairn-dlsm and 0.87x cairn-table. On the slow device another cell's twins differ by up to
    // 1.25x, so the device's noise covers both ratios and every verdict there is "same", each entry
    // saying what the cell's own twins alone would have given; the page cache's cell is pooled
    // apart and keeps its narrow band and both losses.
    RoundFigures rangehot = round -> reads(100, 100, 115, 120, 90, 80);
    writeCell(matrix.resolve("page/rangehot"), "rangehot", rangehot);
    writeCell(matrix.resolve("slow/rangehot"), "rangehot", rangehot);
    double[] twin = {100, 80, 125};
    writeCell(matrix.resolve("slow/zipfian"), "zipfian", round -> reads(100, twin[round], 100, 95, 90, 80));

    String table = MatrixTable.render(matrix);

    assertTrue(table.contains("| page | rangehot | reads/s | 100 | cairn-dlsm, 120 | 0.83 worse, missed"
        + " | 1.25 better, met | 0.87 worse, missed | 1.00; 1.00 over 3 rounds |"), table);
    assertTrue(table.contains("| slow | rangehot | reads/s | 100 | cairn-dlsm, 120"
        + " | 0.83 same, no difference (worse on the cell's own band)"
        + " | 1.25 same, met (better on the cell's own band)"
        + " | 0.87 same, met (worse on the cell's own band) | 1.00; 1.00 [0.80-1.25] over 6 rounds |"), table);
    assertTrue(table.endsWith("Every aim met in 1 of the 3 cells run (13 of 16 not run yet).\n"), table);
  }

  @Test
  void aCellMetOnlyAgainstTheDevicesBandIsCountedAsSuch(@TempDir Path matrix) throws Exception {
    // The default 0.95x the default before with exact twins: a loss on the cell's own band, within
    // the slow device's noise, which another cell's twins widen to 1.25x.
    writeCell(matrix.resolve("slow/rangehot"), "rangehot", round -> reads(100, 100, 105, 105, 90, 80));
    double[] twin = {100, 80, 125};
    writeCell(matrix.resolve("slow/zipfian"), "zipfian", round -> reads(100, twin[round], 100, 95, 90, 80));

    String table = MatrixTable.render(matrix);

    assertTrue(table.contains("| 0.95 same, met (worse on the cell's own band) |"), table);
    assertTrue(table.endsWith("Every aim met in 2 of the 2 cells run, 1 of them only against the device's"
        + " A/A band (14 of 16 not run yet).\n"), table);
  }

  @Test
  void theDefaultUnderAnotherNameIsNoNamedConfiguration(@TempDir Path matrix) throws Exception {
    // cairn-shipped is the default under a third name and reads most: the best named
    // configuration is still cairn-dlsm.
    writeCell(matrix.resolve("slow/uniform"), "uniform", round -> reads(100, 100, 90, 95, 80, 70, 130));
    String table = MatrixTable.render(matrix);
    assertTrue(table.contains("| slow | uniform | reads/s | 100 | cairn-dlsm, 95 | 1.05 better, met"
        + " | 1.43 better, met | 1.11 better, met | 1.00; 1.00 over 3 rounds |"), table);
  }

  @Test
  void onlyTheMatrixsNamedConfigurationsCountAsNamed(@TempDir Path matrix) throws Exception {
    // cairn-default+buffer, a candidate the matrix does not run as a reference, reads most: the
    // best named configuration is still the best of the matrix's own, cairn-dlsm.
    List<String> engines = List.of("cairn-default", "cairn-default-same", "cairn-table", "cairn-dlsm", "rocksdb",
        "rocksdb-best", "cairn-default+buffer");
    writeCell(matrix.resolve("slow/uniform"), "uniform", round -> reads(100, 100, 90, 95, 80, 70, 130), engines,
        engines);
    String table = MatrixTable.render(matrix);
    assertTrue(table.contains("| slow | uniform | reads/s | 100 | cairn-dlsm, 95 | 1.05 better, met"), table);
  }

  @Test
  void aLossToTheDefaultBeforeBeyondTheNoiseIsMissedOnAScanOwnFigure(@TempDir Path matrix) throws Exception {
    writeCell(matrix.resolve("page/scan"), "scan", round -> scans(70, 70, 100, 60, 50, 60));
    assertOnlyCellNotMet(matrix, "| page | scan | scans/s | 70 | cairn-table, 100 | 0.70 worse, missed"
        + " | 1.17 better, met | 0.70 worse, missed | 1.00; 1.00 over 3 rounds |");
  }

  @Test
  void anEngineThatFailedEveryRoundLeavesItsRatioUnjudgedAndTheCellNotMet(@TempDir Path matrix) throws Exception {
    writeCell(matrix.resolve("slow/uniform"), "uniform", round -> reads(100, 100, 90, 80, 70, Double.NaN));
    assertOnlyCellNotMet(matrix, "| slow | uniform | reads/s | 100 | cairn-table, 90 | 1.11 better, met"
        + " | n/a, not judged | 1.11 better, met | 1.00; 1.00 over 3 rounds |");
  }

  @Test
  void withoutAnAaControlNoAimThatNeedsOneIsMet(@TempDir Path matrix) throws Exception {
    writeCell(matrix.resolve("slow/uniform"), "uniform", round -> reads(80, Double.NaN, 100, 90, 70, 120),
        List.of("cairn-default", "cairn-table", "cairn-dlsm", "rocksdb", "rocksdb-best"));
    String table = MatrixTable.render(matrix);
    assertTrue(table.contains("| slow | uniform | reads/s | 80 | cairn-table, 100 | 0.80 undecided, undecided"
        + " | 0.67 undecided, undecided | 0.80 undecided, undecided | none; none |"), table);
  }

  @Test
  void aRunningCellIsNotRunYetAndAMistypedFolderIsRefused(@TempDir Path matrix) throws Exception {
    writeCell(matrix.resolve("slow/latest-zipfian"), "latest-zipfian", round -> reads(100, 100, 90, 80, 70, 60));
    Files.delete(matrix.resolve("slow/latest-zipfian/series.json"));
    assertTrue(MatrixTable.render(matrix).contains("| slow | latest-zipfian | not run yet |"));
    IOException e = assertThrows(IOException.class, () -> MatrixTable.render(matrix.resolve("matrx")));
    assertTrue(e.getMessage().contains("matrx is no folder"), e.getMessage());
  }

  @Test
  void theMatrixFormOfAGeneratedBlockRendersTheTable(@TempDir Path results) throws Exception {
    writeCell(results.resolve("m/slow/load"), "load", round -> writes(1000, 1000, 950, 900, 800, 700));
    String doc = "<!-- generated from m as matrix -->\nstale\n<!-- end generated -->\n";
    String fresh = GeneratedDocs.regenerate(doc, results);
    assertTrue(fresh.startsWith("<!-- generated from m as matrix -->\n| device | workload |"), fresh);
    assertTrue(fresh.endsWith("(15 of 16 not run yet).\n<!-- end generated -->\n"), fresh);
    assertEquals(fresh, GeneratedDocs.regenerate(fresh, results), "rendering is a fixed point");
  }

  /** The engines a cell's figures are given for, in order; a seventh is the default under a third name. */
  private static final List<String> ENGINES = List.of("cairn-default", "cairn-default-same", "cairn-table",
      "cairn-dlsm", "rocksdb", "rocksdb-best", "cairn-shipped");

  private interface RoundFigures {
    /** Each engine's {reads, writes, scans} per second in round {@code round} (0-based). */
    double[][] of(int round);
  }

  private static double[][] reads(double... perEngine) {
    return figures(perEngine, 0);
  }

  private static double[][] writes(double... perEngine) {
    return figures(perEngine, 1);
  }

  private static double[][] scans(double... perEngine) {
    return figures(perEngine, 2);
  }

  private static double[][] figures(double[] perEngine, int column) {
    double[][] out = new double[perEngine.length][3];
    for (int e = 0; e < perEngine.length; e++) {
      out[e][column] = perEngine[e];
      if (column != 1) {
        out[e][1] = 1000; // the paced writer beside reads or scans
      }
    }
    return out;
  }

  /** The matrix's one cell run renders as {@code row}, and the count line says its aims were not all met. */
  private static void assertOnlyCellNotMet(Path matrix, String row) throws IOException {
    String table = MatrixTable.render(matrix);
    assertTrue(table.contains(row), table);
    assertTrue(table.endsWith("Every aim met in 0 of the 1 cells run (15 of 16 not run yet).\n"), table);
  }

  private static void writeCell(Path cell, String workload, RoundFigures figures) throws Exception {
    writeCell(cell, workload, figures, ENGINES);
  }

  private static void writeCell(Path cell, String workload, RoundFigures figures, List<String> engines)
      throws Exception {
    writeCell(cell, workload, figures, ENGINES, engines);
  }

  /**
   * Three finished rounds of {@code engines}, each round's figures given for {@code names} in order
   * (a figure of NaN: the engine's run failed, or, where {@code engines} leaves the engine out, did
   * not run), and the series.json that finishes a cell.
   */
  private static void writeCell(Path cell, String workload, RoundFigures figures, List<String> names,
      List<String> engines) throws Exception {
    for (int round = 0; round < 3; round++) {
      Path out = cell.resolve("round-" + (round + 1));
      Files.createDirectories(out);
      double[][] f = figures.of(round);
      List<RunResult> runs = new ArrayList<>();
      for (int e = 0; e < f.length; e++) {
        String engine = names.get(e);
        double ops = f[e][0] + f[e][1] + f[e][2];
        if (!engines.contains(engine)) {
          continue;
        }
        runs.add(Double.isNaN(ops) ? RunResult.failed(engine, workload, "out of memory", Map.of())
            : run(engine, workload, f[e][0], f[e][1], f[e][2]));
      }
      Outputs.writeData(out, runs);
    }
    SeriesRecords s = SeriesRecords.load(cell);
    Files.writeString(cell.resolve("series.json"), Json.write(SeriesReport.json(s.rounds(), s.engines(), s.config())));
  }

  private static RunResult run(String engine, String workload, double reads, double writes, double scans) {
    List<Sample> samples = new ArrayList<>();
    for (int t = 1; t <= 3; t++) {
      samples.add(new Sample(t, engine, workload, reads, writes, scans, 0.5, 1, 10, 1, 0, 1, 0, 0, "", false,
          Double.NaN));
    }
    double n = Double.NaN;
    Map<String, Object> config = new LinkedHashMap<>(Map.of("records", 100));
    return new RunResult(engine, workload, null, samples, reads, writes, scans, 0.5, 0.5, 0.5, 1, 10, 1, 4.0, n, n, n,
        n, 0, 0, n, n, 3, List.of(), config, n, n, n, n, 1.5, List.of(), FollowUp.NONE, n, n, n, n, n, n);
  }

}

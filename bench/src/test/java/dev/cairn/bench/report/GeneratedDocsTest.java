package dev.cairn.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
 * The README's and docs/choosing.md's figures are the records' own: every generated block of
 * both documents renders, from the series kept under docs/results, to exactly the text it holds.
 * A hand edit of a figure, a dropped loss or a record changed under it fails here.
 */
class GeneratedDocsTest {
  /** The repository's root: the tests run in the jmh module's folder. */
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  @Test
  void theDocumentsAgreeWithTheRecordsTheyQuote() throws Exception {
    int blocks = 0;
    for (String name : GeneratedDocs.DOCUMENTS) {
      String doc = Files.readString(ROOT.resolve(name));
      blocks += GeneratedDocs.seriesNamed(doc).size();
      assertEquals(GeneratedDocs.regenerate(doc, ROOT.resolve("docs/results")), doc,
          name + " differs from its records: run java -jar bench/target/cairn-bench.jar docs --root . and read the diff");
    }
    assertTrue(blocks > 0, "the README and docs/choosing.md quote no series: their figures would be copied by hand");
  }

  @Test
  void aBlockIsRenderedAnewFromItsRecordsAndTheProseAroundItKept(@TempDir Path results) throws Exception {
    Path series = results.resolve("s1");
    writeSeries(series, 300);
    String doc = "# Title\n\nProse before.\n\n<!-- generated from s1 as ratios -->\n| stale | 9.99 |\n"
        + "<!-- end generated -->\n\nProse after.\n";
    String fresh = GeneratedDocs.regenerate(doc, results);
    assertTrue(fresh.startsWith("# Title\n\nProse before.\n\n<!-- generated from s1 as ratios -->\n| workload |"), fresh);
    assertTrue(fresh.endsWith("<!-- end generated -->\n\nProse after.\n"), fresh);
    assertFalse(fresh.contains("9.99"), fresh);
    assertTrue(fresh.contains("| zipfian | cairn-dlsm / rocksdb | 2 | 3.00 better |"), fresh);
    assertEquals(fresh, GeneratedDocs.regenerate(fresh, results), "rendering is a fixed point");

    // A record changed under the document: the document no longer agrees with it.
    writeSeries(series, 90);
    String again = GeneratedDocs.regenerate(fresh, results);
    assertNotEquals(fresh, again);
    assertTrue(again.contains("| zipfian | cairn-dlsm / rocksdb | 2 | 0.90 worse |"), again);
  }

  @Test
  void theTablesFormGivesEveryWorkloadsEnginesAndRatios(@TempDir Path results) throws Exception {
    writeSeries(results.resolve("s1"), 300);
    String doc = "<!-- generated from s1 as tables -->\n<!-- end generated -->\n";
    String fresh = GeneratedDocs.regenerate(doc, results);
    assertTrue(fresh.contains("#### zipfian\n"), fresh);
    assertTrue(fresh.contains("| cairn-dlsm | 2/2 | 300 |"), fresh);
    assertTrue(fresh.contains("| A/A band: cairn-table-same / cairn-table | 2 |"), fresh);
  }

  @Test
  void theShapesFormPutsEachRatioBesideItselfOnTheHeldOutShape(@TempDir Path results) throws Exception {
    writeSeries(results.resolve("chosen"), 300);
    writeSeries(results.resolve("held-out"), 90);
    String doc = "<!-- generated from chosen,held-out as shapes -->\n<!-- end generated -->\n";
    String fresh = GeneratedDocs.regenerate(doc, results);
    assertTrue(fresh.contains("| workload | ratio | reads/s, chosen | reads/s, held-out |"), fresh);
    assertTrue(fresh.contains("| zipfian | cairn-dlsm / rocksdb | 3.00 better | 0.90 worse |"), fresh);
    assertTrue(fresh.contains("| zipfian | A/A band: cairn-table-same / cairn-table | 1.00 | 1.00 |"), fresh);
    assertEquals(List.of("chosen", "held-out"), GeneratedDocs.seriesNamed(fresh));
  }

  /** Two rounds: the A/A pair equal, rocksdb at 100 reads/s, cairn-dlsm at {@code dlsmReads}. */
  private static void writeSeries(Path dir, double dlsmReads) throws Exception {
    for (int round = 1; round <= 2; round++) {
      Path out = dir.resolve("round-" + round);
      Files.createDirectories(out);
      Outputs.writeData(out, List.of(run("cairn-table", 100), run("cairn-table-same", 100), run("cairn-dlsm", dlsmReads),
          run("rocksdb", 100)));
    }
  }

  private static RunResult run(String engine, double reads) {
    List<Sample> samples = new ArrayList<>();
    for (int t = 1; t <= 3; t++) {
      samples.add(new Sample(t, engine, "zipfian", reads, 1000, 0, 0.5, 1, 10, 1, 0, 1, 0, 0, "", false, Double.NaN));
    }
    double n = Double.NaN;
    return new RunResult(engine, "zipfian", null, samples, reads, 1000, 0, 0.5, 0.5, 0.5, 1, 10, 1, 4.0, n, n, n, n, 0,
        0, n, n, 3, List.of(), Map.of("records", 100), n, n, n, n, 1.5, List.of(), FollowUp.NONE, n, n, n, reads, n, n);
  }
}

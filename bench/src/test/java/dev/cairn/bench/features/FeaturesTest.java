package dev.cairn.bench.features;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.cli.UsageException;
import dev.cairn.bench.report.SeriesAnalysis.Band;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The pure parts of {@code features}: its flags and their mistakes, the engines' rotation, the
 * ratios to cairn with their A/A band and verdicts, and the reference the databases are checked
 * against. No database opens here.
 */
class FeaturesTest {

  @Test
  void theDefaultsAreTheFullFigures() {
    FeaturesSettings s = FeaturesSettings.parse(new String[] {"--out", "o"});
    assertEquals(Path.of("o"), s.out());
    assertEquals(Path.of("o", "data"), s.dataDir());
    assertEquals(List.of("counter", "range-delete"), s.experiments());
    assertEquals(100_000, s.counters());
    assertEquals(2_000_000, s.increments());
    assertEquals(1_000_000, s.records());
    assertEquals(200_000, s.gets());
    assertEquals(2_000, s.scans());
    assertEquals(3, s.repeat());
    assertEquals(64L << 20, s.cacheBytes());
    assertEquals(42, s.seed());
  }

  @Test
  void everyFlagIsRead() {
    FeaturesSettings s = FeaturesSettings.parse(new String[] {"--counters", "2_000", "--increments", "20000",
        "--repeat", "1", "--data-dir", "/d", "--cache-mb", "8", "--seed", "7", "--out", "o", "--experiments",
        "range-delete", "--records", "20_000", "--gets", "500", "--scans", "50"});
    assertEquals(List.of("range-delete"), s.experiments());
    assertTrue(s.runs(FeaturesSettings.RANGE_DELETE) && !s.runs(FeaturesSettings.COUNTER));
    assertEquals(2000, s.counters());
    assertEquals(20_000, s.increments());
    assertEquals(20_000, s.records());
    assertEquals(500, s.gets());
    assertEquals(50, s.scans());
    assertEquals(1, s.repeat());
    assertEquals(Path.of("/d"), s.dataDir());
    assertEquals(8L << 20, s.cacheBytes());
    assertEquals(7, s.seed());
  }

  @Test
  void badFlagsSayWhatIsWrong() {
    List<Map.Entry<String[], String>> cases = List.of(
        bad("features needs --out DIR", "--counters", "10"),
        bad("unknown flag --keys for features (valid: --out, --experiments, --counters", "--out", "o", "--keys", "10"),
        bad("flag --repeat needs a value", "--out", "o", "--repeat"),
        bad("flag --repeat given twice", "--out", "o", "--repeat", "2", "--repeat", "3"),
        bad("flag --increments needs an integer, got 'many'", "--out", "o", "--increments", "many"),
        bad("flag --counters = 0 is out of range [1, 10000000]", "--out", "o", "--counters", "0"),
        bad("flag --cache-mb = -1 is out of range", "--out", "o", "--cache-mb", "-1"),
        bad("flag --repeat = 101 is out of range [1, 100]", "--out", "o", "--repeat", "101"),
        bad("flag --records = 99 is out of range [100, 20000000]", "--out", "o", "--records", "99"),
        bad("flag --experiments names 'counters', which is no experiment (valid: counter, range-delete)", "--out", "o",
            "--experiments", "counters"),
        bad("flag --experiments names '', which is no experiment", "--out", "o", "--experiments", "counter,"),
        bad("flag --experiments names counter twice", "--out", "o", "--experiments", "counter,counter"));
    for (Map.Entry<String[], String> c : cases) {
      UsageException e = assertThrows(UsageException.class, () -> FeaturesSettings.parse(c.getKey()),
          String.join(" ", c.getKey()));
      assertTrue(e.getMessage().contains(c.getValue()), "'" + e.getMessage() + "' lacks '" + c.getValue() + "'");
    }
  }

  private static Map.Entry<String[], String> bad(String message, String... args) {
    return Map.entry(args, message);
  }

  @Test
  void theExperimentsRunInTheirListedOrderWhateverTheFlagsOrder() {
    assertEquals(List.of("counter", "range-delete"), FeaturesSettings.experiments("range-delete, counter"));
    assertEquals(List.of("counter"), FeaturesSettings.experiments("counter"));
    assertEquals(FeaturesSettings.EXPERIMENTS, FeaturesSettings.experiments(null));
  }

  @Test
  void roundRStartsAtEngineRModNAndKeepsTheListedCycle() {
    assertEquals(List.of("cairn", "cairn-aa", "rocksdb", "rocksdb-best"), CounterEngines.order(0));
    assertEquals(List.of("cairn-aa", "rocksdb", "rocksdb-best", "cairn"), CounterEngines.order(1));
    assertEquals(List.of("rocksdb", "rocksdb-best", "cairn", "cairn-aa"), CounterEngines.order(2));
    assertEquals(List.of("rocksdb-best", "cairn", "cairn-aa", "rocksdb"), CounterEngines.order(3));
    assertEquals(CounterEngines.order(1), CounterEngines.order(5), "rounds past n start the cycle again");
    // Over n rounds every engine runs first once, and in every position once.
    int n = CounterEngines.NAMES.size();
    for (int position = 0; position < n; position++) {
      List<String> atPosition = new ArrayList<>();
      for (int round = 0; round < n; round++) {
        atPosition.add(CounterEngines.order(round).get(position));
      }
      assertEquals(n, new HashSet<>(atPosition).size(), "position " + position + ": " + atPosition);
    }
    assertThrows(IllegalArgumentException.class, () -> CounterEngines.order(-1));
  }

  @Test
  void ratiosAreTakenWithinARoundAndBanded() {
    // cairn at 100, 200, 100; rocksdb at 150, 200, 50: ratios 1.5, 1.0, 0.5.
    List<FeaturesRound> rounds = List.of(
        round(1, Map.of("cairn", 100.0, "cairn-aa", 100.0, "rocksdb", 150.0, "rocksdb-best", 300.0)),
        round(2, Map.of("cairn", 200.0, "cairn-aa", 220.0, "rocksdb", 200.0, "rocksdb-best", 600.0)),
        round(3, Map.of("cairn", 100.0, "cairn-aa", 95.0, "rocksdb", 50.0, "rocksdb-best", 300.0)));
    assertArrayEquals(new double[] {1.5, 1.0, 0.5}, RatioBands.ratios(rounds, Phase.MERGE, "rocksdb"), 1e-12);
    assertEquals(new Band(1.0, 0.5, 1.5, 3), Band.of(RatioBands.ratios(rounds, Phase.MERGE, "rocksdb")).orElseThrow());
    Band aa = RatioBands.aaBand(rounds, Phase.MERGE).orElseThrow();
    assertEquals(1.0, aa.median(), 1e-12);
    assertEquals(0.95, aa.min(), 1e-12);
    assertEquals(1.1, aa.max(), 1e-12);

    List<RatioBands.Comparison> merge = RatioBands.comparisons(rounds).stream()
        .filter(c -> c.phase() == Phase.MERGE).toList();
    assertEquals(List.of("rocksdb", "rocksdb-best"), merge.stream().map(RatioBands.Comparison::engine).toList(),
        "cairn and its twin are not compared with cairn");
    assertEquals(RatioBands.NO_DIFFERENCE, merge.get(0).verdict());
    assertEquals("rocksdb-best faster", merge.get(1).verdict());
    assertTrue(FeaturesReport.sentence(merge.get(1)).contains("rocksdb-best is faster than cairn, 3.00x"));
  }

  @Test
  void aRatioOverlappingTheAaBandOrItsReciprocalsIsNoDifference() {
    Band aa = new Band(1.0, 0.95, 1.05, 3); // noise range 0.95 .. 1/0.95 = 1.0526
    assertEquals(RatioBands.NO_DIFFERENCE, RatioBands.verdict("rocksdb", new Band(1.2, 1.05, 1.3, 3), aa));
    assertEquals(RatioBands.NO_DIFFERENCE, RatioBands.verdict("rocksdb", new Band(1.06, 1.052, 1.1, 3), aa),
        "1.052 lies under 1/0.95");
    assertEquals("rocksdb faster", RatioBands.verdict("rocksdb", new Band(1.2, 1.06, 1.3, 3), aa));
    assertEquals("cairn faster", RatioBands.verdict("rocksdb", new Band(0.5, 0.4, 0.94, 3), aa));
    // A one-sided A/A band still counts both ways: cairn-aa at 1.10x cairn makes 0.91x noise too.
    Band high = new Band(1.1, 1.1, 1.1, 1);
    assertEquals(RatioBands.NO_DIFFERENCE, RatioBands.verdict("rocksdb", new Band(0.92, 0.92, 0.92, 1), high));
    assertEquals("cairn faster", RatioBands.verdict("rocksdb", new Band(0.9, 0.9, 0.9, 1), high));
    assertTrue(FeaturesReport.sentence(new RatioBands.Comparison("rocksdb", Phase.RMW, new Band(0.5, 0.5, 0.5, 1),
        "cairn faster")).contains("rmw: cairn is faster than rocksdb, 2.00x its rate (rocksdb at 50% of cairn's)"));
  }

  @Test
  void theReferenceIsTheSumOfEachCountersDeltasAndTheSameForOneSeed() {
    CounterWorkload w = CounterWorkload.draw(50, 5000, 3);
    long[] sums = new long[50];
    for (int i = 0; i < w.increments(); i++) {
      assertTrue(w.delta(i) >= 1 && w.delta(i) <= CounterWorkload.MAX_DELTA, "delta " + w.delta(i));
      sums[w.counter(i)] += w.delta(i);
    }
    for (int c = 0; c < 50; c++) {
      assertEquals(sums[c], w.expected(c), "counter " + c);
    }
    CounterWorkload again = CounterWorkload.draw(50, 5000, 3);
    for (int i = 0; i < w.increments(); i++) {
      assertEquals(w.counter(i), again.counter(i));
      assertEquals(w.delta(i), again.delta(i));
    }
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
      long[] values = sums.clone();
      values[7]++;
      EngineFigures.check("rocksdb", "rmw", w, values);
    });
    assertTrue(e.getMessage().contains("rocksdb: the rmw database's counters differ from the reference: 1 of 50, "
        + "the first counter 7"), e.getMessage());
  }

  /** A round whose engines ran every phase at {@code rates} (ops/s), one second each. */
  private static FeaturesRound round(int round, Map<String, Double> rates) {
    List<EngineFigures> engines = new ArrayList<>();
    for (String engine : CounterEngines.NAMES) {
      long ops = Math.round(rates.get(engine));
      PhaseFigures p = new PhaseFigures(ops, 1.0, 0);
      engines.add(new EngineFigures(engine, engines.size() + 1, p, p, p, 0, 0, 0, 0));
    }
    return new FeaturesRound(round, engines);
  }
}

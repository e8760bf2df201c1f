package dev.cairn.bench.features;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.report.SeriesAnalysis.Band;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pure parts of the range-delete experiment: its records, deleted range and reads, the method
 * order, the ratios with their verdicts where lower is better, the report's sentences, and the
 * checks of one run against an in-memory stand-in for an engine, right and wrong. No database
 * opens here.
 */
class FeaturesRangeDeleteTest {

  @Test
  void keysAreFixedWidthSortAsTheirNumbersAndParseBack() {
    assertEquals("user000000000000", new String(RangeDeleteWorkload.key(0), StandardCharsets.US_ASCII));
    assertEquals("user000001234567", new String(RangeDeleteWorkload.key(1_234_567), StandardCharsets.US_ASCII));
    assertEquals(String.format("user%012d", 999_999_999_999L),
        new String(RangeDeleteWorkload.key(999_999_999_999L), StandardCharsets.US_ASCII));
    for (long i : new long[] {0, 9, 10, 99_999, 100_000, 449_999, 450_000}) {
      assertEquals(i, RangeDeleteWorkload.index(RangeDeleteWorkload.key(i)));
      assertTrue(Arrays.compareUnsigned(RangeDeleteWorkload.key(i), RangeDeleteWorkload.key(i + 1)) < 0, "" + i);
    }
    assertEquals(-1, RangeDeleteWorkload.index("user00000000000x".getBytes(StandardCharsets.US_ASCII)));
    assertEquals(-1, RangeDeleteWorkload.index("key0000000000001".getBytes(StandardCharsets.US_ASCII)));
    assertEquals(-1, RangeDeleteWorkload.index(new byte[3]));
  }

  @Test
  void theDeletedTenthStartsAt45PercentAndNextLiveSkipsIt() {
    RangeDeleteWorkload w = RangeDeleteWorkload.draw(1_000_000, 10, 10, 42);
    assertEquals(450_000, w.deleteFrom());
    assertEquals(550_000, w.deleteTo());
    assertEquals(100_000, w.deleted());
    assertFalse(w.isDeleted(449_999));
    assertTrue(w.isDeleted(450_000));
    assertTrue(w.isDeleted(549_999));
    assertFalse(w.isDeleted(550_000));
    assertEquals(449_999, w.nextLive(449_999));
    assertEquals(550_000, w.nextLive(450_000));
    assertEquals(550_000, w.nextLive(549_999));
    assertEquals(1_000_000, w.nextLive(1_000_000), "past the last record");
    RangeDeleteWorkload small = RangeDeleteWorkload.draw(1234, 1, 1, 1);
    assertEquals(555, small.deleteFrom());
    assertEquals(678, small.deleteTo());
    assertThrows(IllegalArgumentException.class, () -> RangeDeleteWorkload.draw(9, 1, 1, 1));
  }

  @Test
  void valuesAreAFunctionOfKeyAndSeedAndTheReadsOfTheSeed() {
    RangeDeleteWorkload w = RangeDeleteWorkload.draw(10_000, 500, 50, 7);
    RangeDeleteWorkload again = RangeDeleteWorkload.draw(10_000, 500, 50, 7);
    RangeDeleteWorkload other = RangeDeleteWorkload.draw(10_000, 500, 50, 8);
    assertEquals(RangeDeleteWorkload.VALUE_BYTES, w.value(3).length);
    assertArrayEquals(w.value(3), again.value(3));
    assertFalse(Arrays.equals(w.value(3), w.value(4)), "neighbours differ");
    assertFalse(Arrays.equals(w.value(3), other.value(3)), "another seed, other values");
    assertTrue(w.isValueOf(3, w.value(3)));
    assertFalse(w.isValueOf(3, w.value(4)));
    assertFalse(w.isValueOf(3, null));
    assertFalse(w.isValueOf(3, Arrays.copyOf(w.value(3), 99)));
    assertEquals(500, w.gets());
    assertEquals(50, w.scans());
    boolean someDeleted = false;
    for (int j = 0; j < w.gets(); j++) {
      assertArrayEquals(w.getKey(j), again.getKey(j));
      long i = RangeDeleteWorkload.index(w.getKey(j));
      assertTrue(i >= 0 && i < 10_000, "" + i);
      someDeleted |= w.isDeleted(i);
    }
    assertTrue(someDeleted, "the gets reach the deleted range too");
    for (int j = 0; j < w.scans(); j++) {
      assertArrayEquals(w.scanKey(j), again.scanKey(j));
    }
  }

  @Test
  void theMethodsRotateByRound() {
    assertEquals(List.of(RangeMethod.RANGE, RangeMethod.PER_KEY), RangeMethod.order(0));
    assertEquals(List.of(RangeMethod.PER_KEY, RangeMethod.RANGE), RangeMethod.order(1));
    assertEquals(RangeMethod.order(0), RangeMethod.order(2));
  }

  @Test
  void ratiosOfTimesAndSizesCallTheLowerOneBetter() {
    // cairn's compaction takes 2 s, cairn-aa's 2 to 2.2 s, rocksdb's 1 s, rocksdb-best's 3 s; sizes
    // 100 MiB everywhere but rocksdb-best's 90.
    List<FeaturesRound> rounds = List.of(
        round(1, Map.of("cairn", 2.0, "cairn-aa", 2.0, "rocksdb", 1.0, "rocksdb-best", 3.0)),
        round(2, Map.of("cairn", 2.0, "cairn-aa", 2.2, "rocksdb", 1.0, "rocksdb-best", 3.0)),
        round(3, Map.of("cairn", 2.0, "cairn-aa", 2.1, "rocksdb", 1.0, "rocksdb-best", 3.0)));
    assertArrayEquals(new double[] {0.5, 0.5, 0.5},
        RangeBands.ratios(rounds, RangeMethod.RANGE, RangeFigure.COMPACT, "rocksdb"), 1e-12);
    Band aa = RangeBands.aaBand(rounds, RangeMethod.RANGE, RangeFigure.COMPACT).orElseThrow();
    assertEquals(1.05, aa.median(), 1e-12);
    // range's compaction is the per-key one's time over 2 in round()
    assertArrayEquals(new double[] {0.5, 0.5, 0.5}, RangeBands.methodRatios(rounds, "rocksdb", RangeFigure.COMPACT),
        1e-12);
    assertArrayEquals(new double[] {1000, 1000, 1000},
        RangeBands.values(rounds, "cairn", RangeMethod.PER_KEY, RangeFigure.GETS), 1e-9);

    List<RangeBands.Comparison> compact = RangeBands.comparisons(rounds).stream()
        .filter(c -> c.method() == RangeMethod.RANGE && c.figure() == RangeFigure.COMPACT).toList();
    assertEquals(List.of("rocksdb", "rocksdb-best"), compact.stream().map(RangeBands.Comparison::engine).toList());
    assertEquals("rocksdb faster", compact.get(0).verdict(), "half cairn's time");
    assertEquals("cairn faster", compact.get(1).verdict(), "1.5x cairn's time");
    assertEquals("flush + compact (range): rocksdb is faster than cairn: cairn's time is 2.000x rocksdb's (rocksdb's 0.500x "
        + "cairn's).", RangeDeleteReport.sentence(compact.get(0)));
    assertEquals("flush + compact (range): cairn is faster than rocksdb-best: rocksdb-best's time is 1.500x cairn's (cairn's "
        + "0.667x rocksdb-best's).", RangeDeleteReport.sentence(compact.get(1)));

    RangeBands.Comparison size = RangeBands.comparisons(rounds).stream().filter(c -> c.method() == RangeMethod.PER_KEY
        && c.figure() == RangeFigure.SIZE && c.engine().equals("rocksdb-best")).findFirst().orElseThrow();
    assertEquals("rocksdb-best smaller", size.verdict(), "sizes equal between the twins: any difference counts");
    assertTrue(RangeDeleteReport.sentence(size).startsWith("size after compact (per-key): rocksdb-best is smaller "
        + "than cairn: cairn's size is 1.111x rocksdb-best's"), RangeDeleteReport.sentence(size));
    RangeBands.Comparison gets = RangeBands.comparisons(rounds).stream().filter(c -> c.figure() == RangeFigure.GETS
        && c.engine().equals("rocksdb")).findFirst().orElseThrow();
    assertEquals(RatioBands.NO_DIFFERENCE, gets.verdict());
    assertTrue(RangeDeleteReport.sentence(gets).contains("rocksdb and cairn show no difference beyond the A/A band "
        + "(rocksdb's gets/s at 1.000x cairn's)"), RangeDeleteReport.sentence(gets));
  }

  @Test
  void aRateKeepsTheCounterExperimentsDirection() {
    Band aa = new Band(1.0, 0.95, 1.05, 3);
    assertEquals("rocksdb faster", RatioBands.verdict("rocksdb", new Band(0.5, 0.4, 0.6, 3), aa, false, "faster"));
    assertEquals("cairn faster", RatioBands.verdict("rocksdb", new Band(0.5, 0.4, 0.6, 3), aa, true, "faster"));
    assertEquals("cairn smaller", RatioBands.verdict("rocksdb", new Band(1.5, 1.4, 1.6, 3), aa, false, "smaller"));
    assertEquals(RatioBands.NO_DIFFERENCE, RatioBands.verdict("rocksdb", new Band(1.0, 0.9, 1.6, 3), aa, false,
        "smaller"));
  }

  @Test
  void figuresShowThreeSignificantDigits() {
    assertEquals(0, RangeDeleteReport.decimals(305_311));
    assertEquals(1, RangeDeleteReport.decimals(12.3));
    assertEquals(2, RangeDeleteReport.decimals(1.5));
    assertEquals(4, RangeDeleteReport.decimals(0.0123));
    assertEquals(6, RangeDeleteReport.decimals(1e-9));
    assertEquals(3, RangeDeleteReport.ratioDecimals(1.004));
    assertEquals(1, RangeDeleteReport.ratioDecimals(21.6));
  }

  @Test
  void aRightStorePassesEveryCheck(@TempDir Path dir) throws Exception {
    RangeDeleteWorkload w = RangeDeleteWorkload.draw(5_000, 3_000, 300, 3);
    for (RangeMethod method : RangeMethod.values()) {
      MemoryStore store = new MemoryStore(false, false);
      RangeRun run = RangeRun.measure("memory", method, d -> store, dir.resolve(method.label()), w);
      assertEquals(method, run.method());
      assertEquals(5_000, run.load().ops());
      assertEquals(500, run.delete().ops());
      assertEquals(3_000, run.gets().ops());
      assertEquals(300, run.scans().ops());
      assertTrue(run.scanEntries() > 0 && run.scanEntries() <= 300L * RangeDeleteWorkload.SCAN_LENGTH);
      assertTrue(run.settled());
      assertTrue(run.dropSettled());
      assertEquals(4_000, run.drop().ops(), "the drop's 4,500 keys less the deleted 500");
      assertEquals(500, store.map.size(), "the deleted tenth and the dropped keys gone, the first and last 5% kept");
      assertEquals(method == RangeMethod.RANGE ? 2 : 0, store.rangeDeletes);
      assertEquals(method == RangeMethod.RANGE ? 0 : 5, store.deleteBatches,
          "500 deletes, then 4,000 dropped, in batches of 1000");
      assertTrue(store.closed);
      assertFalse(Files.exists(dir.resolve(method.label())), "the directory is deleted");
    }
  }

  @Test
  void aStoreThatReturnsADeletedKeyOrLosesALiveOneFails(@TempDir Path dir) {
    RangeDeleteWorkload w = RangeDeleteWorkload.draw(5_000, 3_000, 300, 3);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> RangeRun.measure("ignores-ranges",
        RangeMethod.RANGE, d -> new MemoryStore(true, false), dir.resolve("a"), w));
    assertTrue(e.getMessage().startsWith("ignores-ranges (range): read-during gets: "), e.getMessage());
    assertTrue(e.getMessage().contains("wrong reads; the first: deleted key user00000000"), e.getMessage());
    assertTrue(e.getMessage().endsWith("returned a value"), e.getMessage());

    MemoryStore lossy = new MemoryStore(false, true);
    e = assertThrows(IllegalStateException.class, () -> RangeRun.measure("lossy", RangeMethod.PER_KEY, d -> lossy,
        dir.resolve("b"), w));
    // Key 2750, the first after the deleted range, is gone: a get or a scan meets it first.
    assertTrue(e.getMessage().contains("user000000002750"), e.getMessage());
    assertTrue(lossy.closed, "closed after the failure");
  }

  @Test
  void aScanThatSkipsOrReturnsADeletedKeyIsCaught() {
    RangeDeleteWorkload w = RangeDeleteWorkload.draw(1_000, 1, 1, 1); // deletes [450, 550)
    RangeRun.Misreads misreads = new RangeRun.Misreads("x");
    RangeRun.ScanCheck check = new RangeRun.ScanCheck(w, misreads);
    check.start(448);
    check.entry(RangeDeleteWorkload.key(448), w.value(448));
    check.entry(RangeDeleteWorkload.key(449), w.value(449));
    check.entry(RangeDeleteWorkload.key(550), w.value(550));
    check.end(3);
    assertEquals("x: p: 1 wrong reads; the first: the scan from user000000000448 ended after 3 entries, before "
        + "user000000000551", assertThrows(IllegalStateException.class, () -> misreads.throwIfAny("p")).getMessage());

    RangeRun.Misreads deleted = new RangeRun.Misreads("x");
    check = new RangeRun.ScanCheck(w, deleted);
    check.start(449);
    check.entry(RangeDeleteWorkload.key(449), w.value(449));
    check.entry(RangeDeleteWorkload.key(450), w.value(450));
    assertTrue(assertThrows(IllegalStateException.class, () -> deleted.throwIfAny("p")).getMessage()
        .contains("returned deleted key user000000000450 where user000000000550 was due"));

    RangeRun.Misreads end = new RangeRun.Misreads("x");
    check = new RangeRun.ScanCheck(w, end);
    check.start(998);
    check.entry(RangeDeleteWorkload.key(998), w.value(998));
    check.entry(RangeDeleteWorkload.key(999), w.value(999));
    check.end(2);
    end.throwIfAny("a scan that reached the last record may be short");
  }

  @Test
  void theStandInIsRight() {
    MemoryStore s = new MemoryStore(false, false);
    s.putBatch(new byte[][] {RangeDeleteWorkload.key(1), RangeDeleteWorkload.key(2)}, new byte[][] {{1}, {2}}, 2);
    s.deleteRange(RangeDeleteWorkload.key(1), RangeDeleteWorkload.key(2));
    assertNull(s.get(RangeDeleteWorkload.key(1)));
    assertArrayEquals(new byte[] {2}, s.get(RangeDeleteWorkload.key(2)));
  }

  /**
   * A round in which every engine's per-key compaction took {@code compactSeconds} and its range
   * compaction half that (their flushes no time); every other figure 1,000 a second or 100 MiB (rocksdb-best's size 90).
   */
  private static FeaturesRound round(int round, Map<String, Double> compactSeconds) {
    List<RangeDeleteFigures> engines = new ArrayList<>();
    for (String engine : CounterEngines.NAMES) {
      double c = compactSeconds.get(engine);
      long size = (engine.equals("rocksdb-best") ? 90L : 100L) << 20;
      engines.add(new RangeDeleteFigures(engine, engines.size() + 1, List.of(
          run(RangeMethod.RANGE, c / 2, size), run(RangeMethod.PER_KEY, c, size))));
    }
    return new FeaturesRound(round, List.of(), engines);
  }

  private static RangeRun run(RangeMethod method, double compactSeconds, long size) {
    PhaseFigures thousand = new PhaseFigures(1000, 1.0, 0);
    return new RangeRun(method, thousand, 0, true, thousand, thousand, thousand, 0, new PhaseFigures(1, 0, 0),
        true, size, new PhaseFigures(1, compactSeconds, 0), size, thousand, true, size / 2, 0);
  }

  /**
   * An engine in memory: right, or one that ignores range deletes, or one that loses the key after
   * the deleted range's end with its per-key deletes.
   */
  private static final class MemoryStore implements RangeStore {
    final TreeMap<byte[], byte[]> map = new TreeMap<>(Arrays::compareUnsigned);
    private final boolean ignoreRanges;
    private final boolean loseOneMore;
    int rangeDeletes;
    int deleteBatches;
    boolean closed;

    MemoryStore(boolean ignoreRanges, boolean loseOneMore) {
      this.ignoreRanges = ignoreRanges;
      this.loseOneMore = loseOneMore;
    }

    @Override
    public void putBatch(byte[][] keys, byte[][] values, int count) {
      for (int i = 0; i < count; i++) {
        map.put(keys[i].clone(), values[i].clone());
      }
    }

    @Override
    public void deleteBatch(byte[][] keys, int count) {
      deleteBatches++;
      for (int i = 0; i < count; i++) {
        map.remove(keys[i]);
        if (loseOneMore) {
          map.remove(RangeDeleteWorkload.key(RangeDeleteWorkload.index(keys[i]) + 1));
        }
      }
    }

    @Override
    public void deleteRange(byte[] from, byte[] toExclusive) {
      rangeDeletes++;
      if (!ignoreRanges) {
        map.subMap(from, toExclusive).clear();
      }
    }

    @Override
    public byte[] get(byte[] key) {
      return map.get(key);
    }

    @Override
    public int scan(byte[] from, int limit, EntryVisitor visitor) {
      int n = 0;
      for (Map.Entry<byte[], byte[]> e : map.tailMap(from, true).entrySet()) {
        if (n == limit) {
          break;
        }
        visitor.entry(e.getKey(), e.getValue());
        n++;
      }
      return n;
    }

    @Override
    public void flush() {}

    @Override
    public void compactAll() {}

    @Override
    public boolean busy() {
      return false;
    }

    @Override
    public void close() {
      closed = true;
    }
  }
}

package dev.cairn.bench.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.BenchMain;
import dev.cairn.bench.report.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code features} at tiny sizes (a few thousand increments and records, seconds in all): every
 * engine's databases hold the reference's counters, and every read after the range deletes is
 * right (the command fails otherwise), report.md starts with the command and holds every engine,
 * phase and method, summary.json every round's figures, and the databases are gone at the end.
 * Also what RocksDB says it ran with. No timing assertions.
 */
class FeaturesCommandTest {
  @Test
  void writesEveryEnginesFiguresOfBothExperimentsAtTinySizes(@TempDir Path out) throws Exception {
    String report = run(out, "--counters", "300", "--increments", "3000", "--records", "3000", "--gets", "2000",
        "--scans", "100", "--repeat", "2", "--cache-mb", "8", "--out", out.toString());
    assertTrue(report.startsWith("Command: `java -jar cairn-bench.jar features --counters 300 --increments 3000"),
        "the command line is report.md's first line:\n" + report);
    for (String part : List.of("# Features: Counters: merge against read-modify-write; Range deletes: one "
        + "deleteRange against a delete per key", "## Counters: merge against read-modify-write", "### Rates",
        "### Against cairn", "### Bytes written", "| cairn |", "| cairn-aa |", "| rocksdb |", "| rocksdb-best |",
        "| rocksdb | merge |", "| rocksdb-best | rmw |", "The A/A band is",
        "round 1 cairn, cairn-aa, rocksdb, rocksdb-best; round 2 cairn-aa, rocksdb, rocksdb-best, cairn",
        "processors (nproc)", "## Range deletes: one deleteRange against a delete per key",
        "round 1 range, then per-key; round 2 per-key, then range", "| rocksdb | range | delete |",
        "| rocksdb-best | per-key | size after compact |", "### range / per-key")) {
      assertTrue(report.contains(part), "report.md lacks " + part + ":\n" + report);
    }
    assertFalse(Files.exists(out.resolve("data")), "the databases are deleted at the end");

    Map<?, ?> summary = (Map<?, ?>) JsonParser.parse(Files.readString(out.resolve("summary.json")));
    List<?> rounds = (List<?>) summary.get("rounds");
    assertEquals(2, rounds.size());
    for (Object o : rounds) {
      List<?> engines = (List<?>) ((Map<?, ?>) ((Map<?, ?>) o).get("counter")).get("engines");
      assertEquals(4, engines.size());
      for (Object e : engines) {
        Map<?, ?> engine = (Map<?, ?>) e;
        for (String phase : List.of("merge", "read_after_merge", "rmw")) {
          Map<?, ?> p = (Map<?, ?>) engine.get(phase);
          assertTrue(((Number) p.get("ops_per_s")).doubleValue() > 0, engine.toString());
        }
        assertEquals(3000, ((Number) ((Map<?, ?>) engine.get("merge")).get("ops")).intValue());
        assertEquals(300, ((Number) ((Map<?, ?>) engine.get("read_after_merge")).get("ops")).intValue());
        assertTrue(((Number) engine.get("merge_database_bytes")).longValue() > 0, engine.toString());
      }
      checkRangeDeletes((Map<?, ?>) o, 3000, 2000, 100);
    }
  }

  /**
   * The range-delete experiment alone: every engine's reads after each method's deletes were right
   * (the command fails otherwise), and its figures are in place.
   */
  @Test
  void runsTheRangeDeleteExperimentAlone(@TempDir Path out) throws Exception {
    String report = run(out, "--experiments", "range-delete", "--records", "2000", "--gets", "1000", "--scans",
        "50", "--repeat", "1", "--cache-mb", "8", "--out", out.toString());
    assertTrue(report.startsWith("Command: `java -jar cairn-bench.jar features --experiments range-delete"), report);
    assertFalse(report.contains("Counters"), "no counter section:\n" + report);
    for (String part : List.of("### Per engine and method", "### Against cairn", "| cairn-aa | per-key |",
        "200 keys [`user000000000900`, `user000000001100`)", "With one round the bands are too narrow")) {
      assertTrue(report.contains(part), "report.md lacks " + part + ":\n" + report);
    }
    Map<?, ?> summary = (Map<?, ?>) JsonParser.parse(Files.readString(out.resolve("summary.json")));
    Map<?, ?> round = (Map<?, ?>) ((List<?>) summary.get("rounds")).get(0);
    assertFalse(round.containsKey("counter"));
    checkRangeDeletes(round, 2000, 1000, 50);
    assertFalse(Files.exists(out.resolve("data")), "the databases are deleted at the end");
  }

  private static String run(Path out, String... args) throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = BenchMain.execute(Stream.concat(Stream.of("features"), Stream.of(args)).toArray(String[]::new),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(BenchMain.EXIT_OK, code, "features failed:\n" + err.toString(StandardCharsets.UTF_8));
    return Files.readString(out.resolve("report.md"));
  }

  /** Every engine ran both methods with the counts asked for, and the compaction left a database. */
  private static void checkRangeDeletes(Map<?, ?> round, int records, int gets, int scans) {
    List<?> engines = (List<?>) ((Map<?, ?>) round.get("range_delete")).get("engines");
    assertEquals(4, engines.size());
    for (Object e : engines) {
      List<?> runs = (List<?>) ((Map<?, ?>) e).get("runs");
      assertEquals(2, runs.size(), e.toString());
      for (Object r : runs) {
        Map<?, ?> run = (Map<?, ?>) r;
        assertEquals(records, ((Number) ((Map<?, ?>) run.get("load")).get("ops")).intValue());
        assertEquals(records / 10, ((Number) ((Map<?, ?>) run.get("delete")).get("ops")).intValue());
        assertEquals(gets, ((Number) ((Map<?, ?>) run.get("gets")).get("ops")).intValue());
        assertEquals(scans, ((Number) ((Map<?, ?>) run.get("scans")).get("ops")).intValue());
        assertTrue(((Number) ((Map<?, ?>) run.get("scans")).get("ops_per_s")).doubleValue() > 0, run.toString());
        assertTrue(((Number) run.get("size_after_compact_bytes")).longValue() > 0, run.toString());
        assertEquals(Boolean.TRUE, run.get("settled"), run.toString());
      }
    }
  }

  /**
   * Both RocksDB engines run uint64add and count as Cairn does; rocksdb-best's cache-keeping options
   * are on, and its codec and write buffer are RocksDB's defaults, as rocksdb's are.
   */
  @Test
  void rocksDbRunsWithTheOptionsTheReportNames(@TempDir Path dir) throws IOException {
    CounterWorkload w = CounterWorkload.draw(100, 1000, 1);
    List<String> codecs = new java.util.ArrayList<>();
    for (String engine : List.of(CounterEngines.ROCKSDB, CounterEngines.ROCKSDB_BEST)) {
      Path db = dir.resolve(engine);
      long[] values = new long[w.counterCount()];
      try (CounterStore store = CounterEngines.open(engine, db, 8L << 20)) {
        for (int i = 0; i < w.increments(); i++) {
          store.merge(w.key(w.counter(i)), dev.cairn.CounterOperator.encode(w.delta(i)));
        }
        for (int c = 0; c < w.counterCount(); c++) {
          byte[] v = store.get(w.key(c));
          values[c] = v == null ? 0 : dev.cairn.CounterOperator.decode(v);
        }
      }
      EngineFigures.check(engine, "merge", w, values);
      String options = latestOptionsFile(db);
      assertTrue(options.contains("merge_operator=UInt64AddOperator"), engine + ": " + options);
      List<String> best = List.of("prepopulate_block_cache=kFlushAndCompaction", "uncache_aggressiveness=300",
          "cache_index_and_filter_blocks=true", "pin_l0_filter_and_index_blocks_in_cache=true");
      for (String option : best) {
        assertEquals(engine.equals(CounterEngines.ROCKSDB_BEST), options.contains(option), engine + ": " + option);
      }
      codecs.add(options.lines().map(String::trim).filter(l -> l.startsWith("compression=")).findFirst()
          .orElseThrow());
      assertTrue(options.contains("write_buffer_size=67108864"), engine + " keeps RocksDB's default write buffer");
    }
    assertEquals(codecs.get(0), codecs.get(1), "rocksdb-best keeps RocksDB's default codec");
  }

  /**
   * Every engine's range-delete store: one range delete hides its keys from gets and scans, batched
   * deletes theirs; RocksDB's carry no merge operator, rocksdb-best's its cache-keeping options.
   */
  @Test
  void rangeStoresDeleteAndCarryTheirEnginesOptions(@TempDir Path dir) throws IOException {
    byte[][] keys = new byte[100][];
    byte[][] values = new byte[100][];
    for (int i = 0; i < 100; i++) {
      keys[i] = RangeDeleteWorkload.key(i);
      values[i] = new byte[] {(byte) i};
    }
    for (String engine : CounterEngines.NAMES) {
      Path db = dir.resolve(engine);
      try (RangeStore store = RangeStore.open(engine, db, 8L << 20)) {
        store.putBatch(keys, values, 100);
        store.deleteRange(keys[10], keys[20]);
        store.deleteBatch(new byte[][] {keys[30], keys[31]}, 2);
        assertEquals(null, store.get(keys[10]), engine);
        assertEquals(null, store.get(keys[31]), engine);
        assertEquals(9, store.get(keys[9])[0], engine);
        List<Long> seen = new java.util.ArrayList<>();
        assertEquals(5, store.scan(keys[8], 5, (k, v) -> seen.add(RangeDeleteWorkload.index(k))), engine);
        assertEquals(List.of(8L, 9L, 20L, 21L, 22L), seen, engine);
        assertEquals(2, store.scan(keys[98], 5, (k, v) -> {}), engine + ": to the end");
        store.compactAll();
        assertEquals(20, store.get(keys[20])[0], engine);
        assertEquals(null, store.get(keys[19]), engine);
      }
      if (engine.startsWith("rocksdb")) {
        String options = latestOptionsFile(db);
        assertFalse(options.contains("UInt64AddOperator"), engine + ": " + options);
        assertEquals(engine.equals(CounterEngines.ROCKSDB_BEST), options.contains(
            "prepopulate_block_cache=kFlushAndCompaction"), engine);
      }
    }
  }

  private static String latestOptionsFile(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      Path latest = files.filter(p -> p.getFileName().toString().startsWith("OPTIONS-")).max(Path::compareTo)
          .orElseThrow();
      return Files.readString(latest);
    }
  }
}

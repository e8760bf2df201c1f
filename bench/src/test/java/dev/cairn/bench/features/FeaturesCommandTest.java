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
 * {@code features} at tiny sizes (a few thousand increments, seconds in all): every engine's
 * databases hold the reference's counters (the command fails otherwise), report.md starts with the
 * command and holds every engine and phase, summary.json every round's figures, and the databases
 * are gone at the end. Also what RocksDB says it ran with. No timing assertions.
 */
class FeaturesCommandTest {
  @Test
  void writesEveryEnginesFiguresAtTinySizes(@TempDir Path out) throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = BenchMain.execute(new String[] {"features", "--counters", "300", "--increments", "3000", "--repeat",
        "2", "--cache-mb", "8", "--out", out.toString()}, new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(BenchMain.EXIT_OK, code, "features failed:\n" + err.toString(StandardCharsets.UTF_8));

    String report = Files.readString(out.resolve("report.md"));
    assertTrue(report.startsWith("Command: `java -jar cairn-bench.jar features --counters 300 --increments 3000"),
        "the command line is report.md's first line:\n" + report);
    for (String part : List.of("## Rates", "## Against cairn", "## Bytes written", "| cairn |", "| cairn-aa |",
        "| rocksdb |", "| rocksdb-best |", "| rocksdb | merge |", "| rocksdb-best | rmw |", "The A/A band is",
        "round 1 cairn, cairn-aa, rocksdb, rocksdb-best; round 2 cairn-aa, rocksdb, rocksdb-best, cairn",
        "processors (nproc)")) {
      assertTrue(report.contains(part), "report.md lacks " + part + ":\n" + report);
    }
    assertFalse(Files.exists(out.resolve("data")), "the databases are deleted at the end");

    Map<?, ?> summary = (Map<?, ?>) JsonParser.parse(Files.readString(out.resolve("summary.json")));
    List<?> rounds = (List<?>) summary.get("rounds");
    assertEquals(2, rounds.size());
    for (Object o : rounds) {
      List<?> engines = (List<?>) ((Map<?, ?>) o).get("engines");
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

  private static String latestOptionsFile(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      Path latest = files.filter(p -> p.getFileName().toString().startsWith("OPTIONS-")).max(Path::compareTo)
          .orElseThrow();
      return Files.readString(latest);
    }
  }
}

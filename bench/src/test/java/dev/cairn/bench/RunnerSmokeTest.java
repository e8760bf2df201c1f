package dev.cairn.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.bench.workload.Workloads;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI's seconds-long smoke of every workload on every peer engine (issue 3, "Done when"): the
 * outputs exist and are well-formed. No timing assertions. Cairn's own engine is smoked by
 * {@link CairnEngineSmokeTest}.
 */
class RunnerSmokeTest {
  static final List<String> PEERS = List.of("rocksdb", "leveldb", "leveldb-java");
  /**
   * Tiny and short: under a second of wall time per (engine, workload), a few kilobytes on disk; in
   * the test's JVM, since a fresh JVM per run would add its start-up to every one
   * ({@link ForkedRunTest} covers the forked runs).
   */
  static final String[] TINY = {"--records", "2000", "--seconds", "0.4", "--readers", "1", "--write-rate", "200",
      "--high-ops", "300", "--low-ops", "50", "--value-bytes", "256", "--cache-mb", "1", "--memtable-mb", "0.25",
      "--same-jvm"};

  @Test
  void compareRunsEveryWorkloadOnEveryPeer(@TempDir Path out) throws Exception {
    StringBuilder stderr = new StringBuilder();
    int code = OutputChecks.execute(stderr, concat(new String[] {"compare", "--engines", String.join(",", PEERS),
        "--workloads", String.join(",", Workloads.names()), "--out", out.toString()}, TINY));
    assertEquals(BenchMain.EXIT_OK, code, "compare failed:\n" + stderr);
    List<Map<String, Object>> entries = OutputChecks.assertWellFormed(out, PEERS, Workloads.names());
    for (Map<String, Object> e : entries) {
      assertEquals("ok", e.get("status"), "run failed: " + e);
    }
  }

  @Test
  void runWritesTheContractForOneEngineAndWorkload(@TempDir Path out) throws Exception {
    StringBuilder stderr = new StringBuilder();
    int code = OutputChecks.execute(stderr, concat(new String[] {"run", "--engine", "rocksdb",
        "--workload", "rangehot", "--out", out.toString()}, TINY));
    assertEquals(BenchMain.EXIT_OK, code, "run failed:\n" + stderr);
    List<Map<String, Object>> entries = OutputChecks.assertWellFormed(out, List.of("rocksdb"), List.of("rangehot"));
    Map<?, ?> config = (Map<?, ?>) entries.get(0).get("config");
    assertEquals(2000.0, config.get("records"));
    assertEquals(42.0, config.get("seed"));
  }

  @Test
  void aSettledLoadOfWideKeysRunsUntilEveryEngineOwesNoCompaction(@TempDir Path out) throws Exception {
    List<String> engines = List.of("cairn-table", "rocksdb", "leveldb", "leveldb-java");
    StringBuilder stderr = new StringBuilder();
    int code = OutputChecks.execute(stderr, concat(new String[] {"compare", "--engines", String.join(",", engines),
        "--workloads", "load", "--key-bytes", "32", "--settle", "--out", out.toString()}, TINY));
    assertEquals(BenchMain.EXIT_OK, code, "compare failed:\n" + stderr);
    for (Map<String, Object> e : OutputChecks.assertWellFormed(out, engines, List.of("load"))) {
      assertEquals("ok", e.get("status"), "run failed: " + e);
      assertEquals(2000.0 * (32 + 256), e.get("user_bytes_written"), e.toString());
      Object settle = e.get("settle_seconds");
      assertTrue(settle instanceof Double d && d >= 0 && d <= (Double) e.get("run_seconds"), e.toString());
      assertEquals(true, ((Map<?, ?>) e.get("config")).get("settle"));
      boolean saysSettleUnhonoured = ((List<?>) e.get("unhonoured_settings")).stream()
          .anyMatch(u -> String.valueOf(u).startsWith("settle:"));
      assertEquals(e.get("engine").equals("leveldb-java"), saysSettleUnhonoured,
          "only an engine that cannot tell its owed compactions says it did not settle: " + e);
    }
  }

  static String[] concat(String[] a, String[] b) {
    String[] all = new String[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}

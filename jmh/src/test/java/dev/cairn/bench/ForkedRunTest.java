package dev.cairn.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner's default: each (engine, workload) in a fresh JVM, its result brought back into the
 * one report. The smoke tests run in the test's JVM ({@code --same-jvm}) to stay quick.
 */
class ForkedRunTest {
  private static String[] withoutSameJvm(String[] flags) {
    return Arrays.stream(flags).filter(f -> !f.equals("--same-jvm")).toArray(String[]::new);
  }

  @Test
  void eachRunHappensInItsOwnJvmAndLandsInTheReport(@TempDir Path out) throws Exception {
    StringBuilder stderr = new StringBuilder();
    int code = OutputChecks.execute(stderr, RunnerSmokeTest.concat(new String[] {"compare", "--engines",
        "cairn-table,rocksdb", "--workloads", "load", "--out", out.toString()}, withoutSameJvm(RunnerSmokeTest.TINY)));
    assertEquals(BenchMain.EXIT_OK, code, "compare failed:\n" + stderr);
    List<Map<String, Object>> entries =
        OutputChecks.assertWellFormed(out, List.of("cairn-table", "rocksdb"), List.of("load"));
    for (Map<String, Object> e : entries) {
      assertEquals("ok", e.get("status"), "run failed: " + e);
      Map<?, ?> config = (Map<?, ?>) e.get("config");
      assertEquals(2000.0, config.get("records"), "the child saw the parent's flags");
      assertNotEquals((double) ProcessHandle.current().pid(), config.get("jvm_pid"), "ran in the test's JVM: " + e);
    }
    assertNotEquals(((Map<?, ?>) entries.get(0).get("config")).get("jvm_pid"),
        ((Map<?, ?>) entries.get(1).get("config")).get("jvm_pid"), "one JVM for both runs");
    // The child's progress lines reach the parent's progress stream.
    assertTrue(stderr.toString().contains("[cairn-table load]"), stderr.toString());
    try (var left = Files.list(out.resolve("data"))) {
      assertTrue(left.noneMatch(p -> p.getFileName().toString().startsWith("run-result-")), "a result file was left");
    }
  }
}

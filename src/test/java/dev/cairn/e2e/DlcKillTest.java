package dev.cairn.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link KillTest} with Delayed L0 Compaction on (docs/dlc.md): a child under a high load, so
 * that delayed L0 compactions and bursty L0→L0 merges are in flight when SIGKILL arrives. Every
 * acknowledged synced write must survive, and the database must reopen under DLC too (the part
 * outputs' "already merged" mark is in memory only and is lost by design).
 */
class DlcKillTest {
  @TempDir Path dir;

  @Test
  void noAcknowledgedSyncedWriteIsLostWhenKilledDuringDelayedAndBurstyCompaction() throws Exception {
    long seed = Long.getLong("cairn.seed", System.nanoTime());
    Random rnd = new Random(seed);
    int cycles = Boolean.getBoolean("cairn.long") ? 40 : 4;
    long next = 0;
    for (int cycle = 0; cycle < cycles; cycle++) {
      long acknowledged = runAndKill(next, 1000 + rnd.nextInt(1500));
      try (Cairn db = Cairn.open(dir, DlcKillChild.options())) {
        for (long i = 0; i <= acknowledged; i++) {
          assertArrayEquals(KillTest.value(i), db.get(KillTest.key(i)),
              "acknowledged key " + i + " lost after kill in cycle " + cycle + " (seed " + seed + ")");
        }
        db.verifyChecksums();
      }
      assertTrue(acknowledged >= next, "the child must acknowledge writes before being killed");
      next = acknowledged + 1;
    }
  }

  /** As {@link KillTest}'s: starts the child at {@code start}, SIGKILLs it after about {@code millis}. */
  private long runAndKill(long start, int millis) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(DlcKillChild.class.getName());
    cmd.add(dir.toString());
    cmd.add(Long.toString(start));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    long last = start - 1;
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII))) {
      String line = r.readLine();
      assertTrue("open".equals(line), "child failed to open the database: " + line);
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
      while (System.nanoTime() < deadline && (line = r.readLine()) != null) {
        last = Long.parseLong(line);
      }
      new ProcessBuilder("kill", "-KILL", Long.toString(p.pid())).start().waitFor();
      p.waitFor();
      while ((line = r.readLine()) != null) {
        if (!line.isEmpty()) {
          last = Long.parseLong(line);
        }
      }
    }
    return last;
  }
}

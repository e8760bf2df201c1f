package dev.cairn.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
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
 * A child JVM writes synced keys and reports each one after it is acknowledged; the test kills
 * it with SIGKILL at a random moment, reopens the database and checks that every acknowledged
 * key is there with its value. Several cycles run on the same database, so recovery of a
 * recovered database is exercised too.
 */
class KillTest {
  @TempDir Path dir;

  @Test
  void noAcknowledgedSyncedWriteIsLostWhenTheProcessIsKilled() throws Exception {
    long seed = Long.getLong("cairn.seed", System.nanoTime());
    Random rnd = new Random(seed);
    int cycles = Boolean.getBoolean("cairn.long") ? 40 : 6;
    long next = 0;
    for (int cycle = 0; cycle < cycles; cycle++) {
      long acknowledged = runAndKill(dir, KillChild.class, next, 300 + rnd.nextInt(1200));
      try (Cairn db = Cairn.open(dir, Options.defaults())) {
        for (long i = 0; i <= acknowledged; i++) {
          assertArrayEquals(value(i), db.get(key(i)),
              "acknowledged key " + i + " lost after kill in cycle " + cycle + " (seed " + seed + ")");
        }
        db.verifyChecksums();
      }
      assertTrue(acknowledged >= next, "the child must acknowledge writes before being killed");
      next = acknowledged + 1;
    }
  }

  /**
   * Starts {@code child} (a main class taking the database directory and the first key) at key
   * {@code start}, kills it after about {@code millis}; returns the last acknowledged key.
   */
  static long runAndKill(Path dir, Class<?> child, long start, int millis) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(child.getName());
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
      // SIGKILL: no shutdown hooks, no close; whatever the OS has is what survives. Sent with
      // kill(1) rather than Process.destroyForcibly, which also closes our end of the pipe and
      // would lose the acknowledgements still in it.
      new ProcessBuilder("kill", "-KILL", Long.toString(p.pid())).start().waitFor();
      p.waitFor();
      // Lines already printed were acknowledged before the kill.
      while ((line = r.readLine()) != null) {
        if (!line.isEmpty()) {
          last = Long.parseLong(line);
        }
      }
    }
    return last;
  }

  static byte[] key(long i) {
    return String.format("ack-%012d", i).getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] fillerKey(long i, int j) {
    return String.format("fill-%012d-%d", i, j).getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] value(long i) {
    byte[] v = new byte[100];
    new Random(i).nextBytes(v);
    return v;
  }
}

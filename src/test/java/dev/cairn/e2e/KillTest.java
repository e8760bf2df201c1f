package dev.cairn.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CounterOperator;
import dev.cairn.testing.EngineCombo;
import dev.cairn.testing.EngineCombo.CompactionScheduler;
import dev.cairn.testing.EngineCombo.CompactionStyle;
import dev.cairn.testkit.LongTests;
import dev.cairn.testkit.Seeds;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A child JVM ({@link KillChild}) writes synced keys and reports each one after it is
 * acknowledged; the test kills it with SIGKILL at a random moment, reopens the database and checks
 * that every acknowledged key is there with its value, that the counters merged into in the same
 * batches count exactly the batches that survived, that the keys those batches range-deleted stay
 * deleted, and that every table verifies. Several cycles run
 * on the same database, so recovery of a recovered database is exercised too. It runs under each
 * compaction style and scheduler ({@link EngineCombo}), with these checks on top:
 *
 * <ul>
 *   <li>{@code BLOCK} (block compaction forced on every level): kills land while merged blocks and
 *       new footers are appended to live tables. A torn tail lies beyond the manifest's valid
 *       length; recovery must ignore it and the next append must cut it off. After each cycle the
 *       parent compacts everything, so appends run again on the recovered tables, and block
 *       compaction must have appended at least once over the run.
 *   <li>{@code BUFFER} (the LSbM compaction buffer, 10 ms trims): kills land during buffered
 *       merges, trims and marker edits. Every hot key, overwritten at every step and read through
 *       the buffer, must show its newest acknowledged step: a buffer left inconsistent by a crash
 *       would serve an older one.
 *   <li>{@code DLC}: kills land during delayed L0 compactions and bursty L0 merges, and the
 *       database must reopen under DLC (the part outputs' "already merged" mark is in memory only
 *       and is lost by design).
 * </ul>
 *
 * <p>Replay with {@code -Dcairn.seed=<seed> -Dcairn.combos=<STYLE/SCHEDULER>} (the kill moments
 * repeat; the child's timing does not).
 */
class KillTest {
  @TempDir Path dir;

  /**
   * CI: every style under DLC, and {@code TABLE} under the immediate scheduler. The crash test
   * ({@code e2e.stress.CrashTest}) SIGKILLs every style under the immediate scheduler in the same
   * CI run, so every combination is killed in CI. {@code -Dcairn.long=true}: the cross-product.
   */
  static List<EngineCombo> combos() {
    return EngineCombo.select(
        EngineCombo.of(CompactionStyle.TABLE, CompactionScheduler.IMMEDIATE),
        EngineCombo.of(CompactionStyle.TABLE, CompactionScheduler.DLC),
        EngineCombo.of(CompactionStyle.BLOCK, CompactionScheduler.DLC),
        EngineCombo.of(CompactionStyle.BUFFER, CompactionScheduler.DLC),
        EngineCombo.twoPhase(),
        EngineCombo.dlsm());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void noAcknowledgedWriteIsLostWhenTheProcessIsKilled(EngineCombo combo) throws Exception {
    long seed = Seeds.seed();
    Random rnd = new Random(seed);
    int cycles = LongTests.enabled() ? 40 : 4;
    // The simplest combination's kills may come early; the others' machinery (appends, trims,
    // DLC's load model) needs a tree a few levels deep first.
    boolean plain = combo.equals(EngineCombo.of(CompactionStyle.TABLE, CompactionScheduler.IMMEDIATE));
    long next = 0;
    long appended = 0;
    for (int cycle = 0; cycle < cycles; cycle++) {
      int millis = plain ? 300 + rnd.nextInt(1200) : 1000 + rnd.nextInt(1500);
      long acknowledged = runAndKill(dir, combo, next, millis);
      String where = " after kill in cycle " + cycle + " (" + combo + ", seed " + seed + ")";
      try (Cairn db = Cairn.open(dir, KillChild.options(combo))) {
        for (long i = 0; i <= acknowledged; i++) {
          assertArrayEquals(KillChild.value(i), db.get(KillChild.key(i)), "acknowledged key " + i + " lost" + where);
          assertNull(db.get(KillChild.goneKey(i)), "range-deleted key " + i + " is back" + where);
        }
        // The batch in flight at the kill may have reached the log too; the next cycle starts after it.
        long survived = db.get(KillChild.key(acknowledged + 1)) != null ? acknowledged + 1 : acknowledged;
        checkCounters(db, survived, where);
        acknowledged = survived;
        if (combo.style() == CompactionStyle.BUFFER) {
          checkHotKeys(db, acknowledged, where);
          assertTrue(db.stats().buffer().enabled(), "the buffer is on");
        }
        db.verifyChecksums();
        if (combo.style() == CompactionStyle.BLOCK) {
          // Reopened under BLOCK with the data of all cycles: compactions append again.
          db.compactRange(null, null);
          appended += db.stats().block().appendedTables();
          db.verifyChecksums();
        }
      }
      assertTrue(acknowledged >= next, "the child must acknowledge writes before being killed" + where);
      next = acknowledged + 1;
    }
    if (combo.style() == CompactionStyle.BLOCK) {
      assertTrue(appended > 0, "block compaction must have run (" + combo + ", seed " + seed + ")");
    }
    System.out.println("kill test " + combo + ": " + cycles + " kills, " + next + " acknowledged synced writes, "
        + "0 lost (seed " + seed + ")");
  }

  /** Counter {@code slot} took one operand per surviving step {@code i <= survived} with {@code i % COUNTERS == slot}. */
  private static void checkCounters(Cairn db, long survived, String where) {
    for (int slot = 0; slot < KillChild.COUNTERS; slot++) {
      long expected = survived < slot ? 0 : (survived - slot) / KillChild.COUNTERS + 1;
      byte[] v = db.get(KillChild.counterKey(slot));
      assertEquals(expected, v == null ? 0 : CounterOperator.decode(v), "counter " + slot + where);
    }
  }

  /**
   * Hot key {@code slot} was last written at the largest step {@code <= acknowledged} congruent
   * to it; the write after it (step + {@link KillChild#HOT_KEYS}, in flight at the kill) may have
   * reached the log too.
   */
  private static void checkHotKeys(Cairn db, long acknowledged, String where) {
    for (long slot = 0; slot < KillChild.HOT_KEYS && slot <= acknowledged; slot++) {
      long lastAcknowledged = acknowledged - Math.floorMod(acknowledged - slot, KillChild.HOT_KEYS);
      byte[] v = db.get(KillChild.hotKey(slot));
      assertNotNull(v, "hot key " + slot + " lost" + where);
      long step = KillChild.step(v);
      assertTrue(step == lastAcknowledged || step == lastAcknowledged + KillChild.HOT_KEYS,
          "hot key " + slot + " shows step " + step + ", acknowledged " + lastAcknowledged + where);
    }
  }

  /**
   * Starts {@link KillChild} on {@code dir} at key {@code start} under {@code combo}, kills it
   * after about {@code millis}; returns the last acknowledged key.
   */
  static long runAndKill(Path dir, EngineCombo combo, long start, int millis) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(KillChild.class.getName());
    cmd.add(dir.toString());
    cmd.add(Long.toString(start));
    cmd.add(combo.toString());
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
}

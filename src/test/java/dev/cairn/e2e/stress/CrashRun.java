package dev.cairn.e2e.stress;

import dev.cairn.testing.EngineCombo.LevelLayout;
import dev.cairn.testing.EngineCombo;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;

/**
 * The crash test's driver loop: start the stress process on the database, SIGKILL it at a random
 * moment, verify the database in this process ({@link CrashVerifier}), and start the next cycle
 * on the same database from where the verified state left off. About one kill in ten lands
 * before the child reports the database open, i.e. during JVM start or recovery.
 */
final class CrashRun {
  /** A child given this long without acknowledging anything is hung, not slow. */
  private static final long PROGRESS_WINDOW_MILLIS = 5000;

  /** What a run did, for the log and the figures. */
  record Summary(EngineCombo combo, long seed, int cycles, long acks, long syncedAcks, int killsBeforeOpen,
      long reopens, long inFlightFoundApplied, long tablesVerified, long childMillis, long verifyMillis) {
    @Override
    public String toString() {
      return "crash test " + combo + " (seed " + seed + "): " + cycles + " cycles, " + acks + " acknowledged writes ("
          + syncedAcks + " synced), " + killsBeforeOpen + " kills before the open, " + reopens
          + " in-process reopens, " + inFlightFoundApplied + " in-flight writes found applied, " + tablesVerified + " table checksum passes; 0 acknowledged writes lost"
          + " (stress processes " + childMillis + " ms, verification " + verifyMillis + " ms)";
    }
  }

  private final Path workDir;
  private final EngineCombo combo;
  private final long seed;
  private final StressWorkload workload;
  private final long maxRunMillis;

  /**
   * @param workDir holds the database ({@code db/}) and the children's stderr ({@code stress-stderr.log})
   * @param workload what the stress process writes; its seed seeds the driver's choices too
   * @param maxRunMillis the longest a child runs before it is killed
   */
  CrashRun(Path workDir, EngineCombo combo, StressWorkload workload, long maxRunMillis) {
    this.workDir = workDir;
    this.combo = combo;
    this.seed = workload.seed();
    this.maxRunMillis = maxRunMillis;
    this.workload = workload;
  }

  /** Runs cycles until {@code maxCycles} or {@code deadlineNanos} (System.nanoTime), whichever comes first. */
  Summary run(int maxCycles, long deadlineNanos) throws IOException, InterruptedException {
    Path db = workDir.resolve("db");
    Path stderr = workDir.resolve("stress-stderr.log");
    // Leveled runs mix in the style's name alone, as before layouts existed: their seeds replay unchanged.
    String name = combo.layout() == LevelLayout.LEVELED ? combo.style().name() : combo.toString();
    Random random = new Random(StressKeys.Mix.of(seed, name.hashCode()));
    CrashVerifier verifier = new CrashVerifier(workload);
    long acks = 0;
    long synced = 0;
    int beforeOpen = 0;
    long reopens = 0;
    int cycle = 0;
    long childNanos = 0;
    long verifyNanos = 0;
    long lastProgress = System.nanoTime();
    for (; cycle < maxCycles && System.nanoTime() < deadlineNanos; cycle++) {
      EngineSettings engine = EngineSettings.random(combo, random);
      StressProcess.KillPlan plan = random.nextInt(10) == 0
          ? new StressProcess.KillPlan(true, 100 + random.nextInt(900))
          : new StressProcess.KillPlan(false, 50 + (long) (random.nextDouble() * maxRunMillis));
      long started = System.nanoTime();
      StressProcess.Outcome outcome = StressProcess.runAndKill(db, stderr, workload, engine,
          random.nextLong(), verifier.next(), plan);
      String context = "cycle " + cycle + " of the " + combo + " crash test (seed " + seed + ", -Dcairn.seed="
          + seed + " reruns the same operations and kill plans, timing aside; database kept in " + db
          + ", child stderr in " + stderr + "), engine " + engine + ", " + plan;
      if (outcome.failure() != null) {
        throw new AssertionError(outcome.failure() + "; " + context);
      }
      if (outcome.opened() && plan.delayMillis() >= PROGRESS_WINDOW_MILLIS && outcome.acks() == 0) {
        throw new AssertionError("the stress process acknowledged nothing in " + plan.delayMillis() + " ms; " + context);
      }
      beforeOpen += outcome.opened() ? 0 : 1;
      acks += outcome.acks();
      synced += outcome.syncedAcks();
      reopens += outcome.reopens();
      long killed = System.nanoTime();
      childNanos += killed - started;
      try {
        verifier.verify(db, engine.toOptions(), outcome.lastAck());
        verifyNanos += System.nanoTime() - killed;
      } catch (RuntimeException e) {
        throw new AssertionError(e.getMessage() + "; " + context, e);
      }
      if (System.nanoTime() - lastProgress > 60_000_000_000L) {
        lastProgress = System.nanoTime();
        System.out.println("crash test " + combo + ": " + (cycle + 1) + " cycles, " + acks + " acknowledged writes");
      }
    }
    return new Summary(combo, seed, cycle, acks, synced, beforeOpen, reopens, verifier.inFlightFoundApplied(),
        verifier.tablesVerified(), childNanos / 1_000_000, verifyNanos / 1_000_000);
  }
}

package dev.cairn.e2e.stress;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.testing.EngineCombo;
import dev.cairn.testing.EngineCombo.CompactionScheduler;
import dev.cairn.testing.EngineCombo.CompactionStyle;
import dev.cairn.testkit.LongTests;
import dev.cairn.testkit.Seeds;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cairn's crash test (after RocksDB's {@code db_crashtest}): for each compaction style (and the
 * two-phase level layout), cycles of
 * a multi-threaded stress process killed with SIGKILL at random moments, each followed by an
 * exact check of the recovered database (see {@link CrashVerifier}). docs/testing.md explains
 * what it proves.
 *
 * <p>CI runs 7 short cycles a combination (about 14 s each on two cores). Properties: {@code -Dcairn.crash.minutes=N} runs for N
 * minutes per style with longer-lived children (scripts/crash-test.sh); {@code
 * -Dcairn.crash.cycles=N} sets the cycle count; {@code -Dcairn.seed=S} replays a run. A failing
 * run keeps its database and the children's stderr in the temporary directory it names.
 */
class CrashTest {
  @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path workDir;

  /** Every style with the immediate scheduler, and the two-phase layout under table compaction and dLSM. */
  static List<EngineCombo> combos() {
    List<EngineCombo> combos = new ArrayList<>();
    for (CompactionStyle style : CompactionStyle.values()) {
      combos.add(EngineCombo.of(style, CompactionScheduler.IMMEDIATE));
    }
    combos.add(EngineCombo.twoPhase());
    combos.add(EngineCombo.dlsm());
    return combos;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void acknowledgedWritesSurviveSigkillAndRecoveryIsAPrefixOfIssuedWrites(EngineCombo combo) throws Exception {
    long seed = Seeds.seed();
    double minutes = Double.parseDouble(System.getProperty("cairn.crash.minutes", "0"));
    Path dir = Files.createDirectories(workDir.resolve(combo.toString().replace('/', '-').toLowerCase()));
    CrashRun.Summary summary;
    if (minutes > 0) {
      long deadline = System.nanoTime() + (long) (minutes * TimeUnit.MINUTES.toNanos(1));
      // Longer-lived children and ten times the keys, so the tree grows more levels deep.
      summary = new CrashRun(dir, combo, new StressWorkload(seed, 6, 10_000, 10), 8000).run(Integer.MAX_VALUE, deadline);
    } else {
      int cycles = Integer.getInteger("cairn.crash.cycles", LongTests.enabled() ? 100 : 7);
      summary = new CrashRun(dir, combo, new StressWorkload(seed, 4, 1000, 10), 1000).run(cycles, Long.MAX_VALUE);
    }
    System.out.println(summary);
    assertTrue(summary.acks() > 0, "the stress process never acknowledged a write (seed " + seed + ")");
  }
}

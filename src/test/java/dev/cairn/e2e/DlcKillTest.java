package dev.cairn.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import java.nio.file.Path;
import java.util.Random;
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
      long acknowledged = KillTest.runAndKill(dir, DlcKillChild.class, next, 1000 + rnd.nextInt(1500));
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
}

package dev.cairn.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link KillTest} with block compaction forced on every level (docs/compaction.md): SIGKILL
 * lands while merged blocks and new footers are being appended to live tables. A torn tail lies
 * beyond the manifest's valid length; recovery must ignore it and the next append must cut it
 * off, so every acknowledged synced write survives and every table verifies.
 */
class BlockKillTest {
  @TempDir Path dir;

  @Test
  void noAcknowledgedSyncedWriteIsLostWhenKilledDuringBlockCompaction() throws Exception {
    long seed = Long.getLong("cairn.seed", System.nanoTime());
    Random rnd = new Random(seed);
    int cycles = Boolean.getBoolean("cairn.long") ? 40 : 5;
    long next = 0;
    long appended = 0;
    for (int cycle = 0; cycle < cycles; cycle++) {
      long acknowledged = KillTest.runAndKill(dir, BlockKillChild.class, next, 800 + rnd.nextInt(1500));
      try (Cairn db = Cairn.open(dir, BlockKillChild.options())) {
        for (long i = 0; i <= acknowledged; i++) {
          assertArrayEquals(KillTest.value(i), db.get(KillTest.key(i)),
              "acknowledged key " + i + " lost after kill in cycle " + cycle + " (seed " + seed + ")");
        }
        db.verifyChecksums();
        // Reopened under BLOCK with the data of all cycles: compactions append again.
        db.compactRange(null, null);
        appended += db.stats().block().appendedTables();
        db.verifyChecksums();
      }
      assertTrue(acknowledged >= next, "the child must acknowledge writes before being killed");
      next = acknowledged + 1;
    }
    assertTrue(appended > 0, "block compaction must have run (seed " + seed + ")");
  }
}

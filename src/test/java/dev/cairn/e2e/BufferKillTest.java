package dev.cairn.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Stats;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link KillTest} with the LSbM compaction buffer on (docs/compaction.md): SIGKILL lands during
 * buffered merges, trims and marker edits. Every acknowledged synced write must survive, and
 * every hot key, overwritten at every step and read through the buffer, must show its newest
 * acknowledged step: a buffer left inconsistent by a crash would serve an older one.
 */
class BufferKillTest {
  @TempDir Path dir;

  @Test
  void noAcknowledgedWriteIsLostOrServedStaleWhenKilledDuringBufferWork() throws Exception {
    long seed = Long.getLong("cairn.seed", System.nanoTime());
    Random rnd = new Random(seed);
    int cycles = Boolean.getBoolean("cairn.long") ? 40 : 4;
    long next = 0;
    for (int cycle = 0; cycle < cycles; cycle++) {
      long acknowledged = KillTest.runAndKill(dir, BufferKillChild.class, next, 1000 + rnd.nextInt(1500));
      String where = " after kill in cycle " + cycle + " (seed " + seed + ")";
      try (Cairn db = Cairn.open(dir, BufferKillChild.options())) {
        for (long i = 0; i <= acknowledged; i++) {
          assertArrayEquals(KillTest.value(i), db.get(KillTest.key(i)), "acknowledged key " + i + " lost" + where);
        }
        for (long slot = 0; slot < BufferKillChild.HOT_KEYS && slot <= acknowledged; slot++) {
          long lastAcknowledged = acknowledged - Math.floorMod(acknowledged - slot, BufferKillChild.HOT_KEYS);
          byte[] v = db.get(BufferKillChild.hotKey(slot));
          assertNotNull(v, "hot key " + slot + " lost" + where);
          long step = BufferKillChild.step(v);
          // The write after the last acknowledged one may have reached the log too.
          assertTrue(step == lastAcknowledged || step == lastAcknowledged + BufferKillChild.HOT_KEYS,
              "hot key " + slot + " shows step " + step + ", acknowledged " + lastAcknowledged + where);
        }
        db.verifyChecksums();
        Stats.Buffer buffer = db.stats().buffer();
        assertTrue(buffer.enabled(), "the buffer is on");
      }
      assertTrue(acknowledged >= next, "the child must acknowledge writes before being killed");
      next = acknowledged + 1;
    }
  }
}

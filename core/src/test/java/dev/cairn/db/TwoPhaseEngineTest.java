package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.config.CompactionSettings;
import dev.cairn.testing.EngineCombo;
import dev.cairn.testing.EngineCombo.CompactionStyle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * dLSM's two-phase levels and aggressive compaction in the engine: rounds end by level moves and
 * every value stays readable across them and a reopen; with writes stopped, aggressive compaction
 * drains every level above the deepest into it.
 */
class TwoPhaseEngineTest {
  @TempDir Path dir;

  private static Options.Builder small(CompactionStyle style) {
    return small(style, 0);
  }

  private static Options.Builder small(CompactionStyle style, long idleDrainMillis) {
    CompactionSettings.TwoPhaseExecution execution = style == CompactionStyle.BUFFER
        ? CompactionSettings.Buffer.defaults()
        : new CompactionSettings.PlainMerge();
    return EngineCombo.tinyTree().compaction(new CompactionSettings.TwoPhase(execution, idleDrainMillis));
  }

  private static byte[] key(int i) {
    return String.format("key%08d", i).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] value(int i, int version) {
    return ("value-" + i + "-" + version + "-" + "x".repeat(200)).getBytes(StandardCharsets.US_ASCII);
  }

  @ParameterizedTest
  @EnumSource(value = CompactionStyle.class, names = {"TABLE", "BUFFER"})
  void roundsEndByLevelMovesAndEveryValueSurvivesThemAndAReopen(CompactionStyle style) {
    int keys = 3000;
    int[] version = new int[keys];
    SplittableRandom random = new SplittableRandom(7);
    long levelMoves;
    try (Cairn db = Cairn.open(dir, small(style).build())) {
      for (int round = 0; round < 8; round++) {
        for (int n = 0; n < keys; n++) {
          int i = random.nextInt(keys);
          db.put(key(i), value(i, ++version[i]));
        }
      }
      db.flush();
      levelMoves = db.stats().compaction().levelMoves();
      checkAll(db, version);
    }
    assertTrue(levelMoves > 0, "1.7 MB of updates through a 64 KiB pair must end a round");
    try (Cairn db = Cairn.open(dir, small(style).build())) {
      checkAll(db, version);
    }
  }

  @Test
  void withWritesStoppedAggressiveCompactionDrainsEveryUpperLevelIntoTheDeepest() throws Exception {
    int keys = 3000;
    int[] version = new int[keys];
    try (Cairn db = Cairn.open(dir, small(CompactionStyle.BUFFER, 200).build())) {
      for (int round = 0; round < 4; round++) {
        for (int i = 0; i < keys; i++) {
          db.put(key(i), value(i, ++version[i]));
        }
      }
      db.flush();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (levelsWithFiles(db.stats()).size() > 1 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      Stats stats = db.stats();
      assertEquals(1, levelsWithFiles(stats).size(), "all data in one level after the drain: " + levelsWithFiles(stats));
      assertTrue(stats.compaction().idleDrains() >= 1, "the drain began once writes stopped");
      checkAll(db, version);
    }
  }

  private static List<Integer> levelsWithFiles(Stats stats) {
    List<Integer> levels = new ArrayList<>();
    for (Stats.LevelStats l : stats.levels()) {
      if (l.files() > 0) {
        levels.add(l.level());
      }
    }
    return levels;
  }

  private static void checkAll(Cairn db, int[] version) {
    for (int i = 0; i < version.length; i++) {
      byte[] expected = version[i] == 0 ? null : value(i, version[i]);
      assertArrayEquals(expected, db.get(key(i)), "key " + i);
    }
  }
}

package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.cairn.Options;
import dev.cairn.compaction.dlsm.TwoPhaseCompactionPicker;
import dev.cairn.compaction.leveled.CompactionPriority;
import dev.cairn.compaction.leveled.LeveledCompactionPicker;
import dev.cairn.config.CompactionSettings;
import dev.cairn.db.base.Engine;
import dev.cairn.db.buffer.BufferLeftover;
import dev.cairn.db.buffer.BufferStyle;
import dev.cairn.db.compact.StyleRuntime;
import dev.cairn.db.read.BufferScans;
import dev.cairn.db.read.PointReads;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Settings in, picker and style out: what the registry maps each compaction setting to. */
class StyleRegistryTest {

  private static Options with(CompactionSettings s) {
    return Options.builder().compaction(s).build();
  }

  @Test
  void leveledExecutionsStartCompactionsByTheirPriorityAndTheBufferByTheRoundRobinSweep() {
    assertEquals(CompactionPriority.MIN_OVERLAP, ((LeveledCompactionPicker) StyleRegistry.picker(with(
        CompactionSettings.leveled(CompactionSettings.Table.defaults())))).priority());
    assertEquals(CompactionPriority.ROUND_ROBIN, ((LeveledCompactionPicker) StyleRegistry.picker(with(
        CompactionSettings.leveled(new CompactionSettings.Table(CompactionPriority.ROUND_ROBIN))))).priority());
    CompactionSettings.Block block = CompactionSettings.Block.defaults();
    assertEquals(CompactionPriority.ROUND_ROBIN, ((LeveledCompactionPicker) StyleRegistry.picker(with(
        CompactionSettings.leveled(new CompactionSettings.Block(CompactionPriority.ROUND_ROBIN, block.policy(),
            block.io()))))).priority());
    assertEquals(CompactionPriority.ROUND_ROBIN, ((LeveledCompactionPicker) StyleRegistry.picker(with(
        CompactionSettings.leveled(CompactionSettings.Buffer.defaults())))).priority());
    assertEquals(CompactionPriority.ROUND_ROBIN,
        ((LeveledCompactionPicker) StyleRegistry.picker(Options.defaults())).priority(), "the default: the buffer");
  }

  @Test
  void twoPhaseLevelsGetTheTwoPhasePicker() {
    assertInstanceOf(TwoPhaseCompactionPicker.class,
        StyleRegistry.picker(with(CompactionSettings.twoPhase(new CompactionSettings.PlainMerge()))));
    assertInstanceOf(TwoPhaseCompactionPicker.class,
        StyleRegistry.picker(with(CompactionSettings.twoPhase(CompactionSettings.Buffer.defaults()))));
  }

  @Test
  void onlyTheBufferExecutionKeepsABufferAndEveryOtherStyleDrainsOneLeftBehind(@TempDir Path dir) {
    for (CompactionSettings s : List.of(CompactionSettings.leveled(CompactionSettings.Table.defaults()),
        CompactionSettings.leveled(CompactionSettings.Block.defaults()),
        CompactionSettings.twoPhase(new CompactionSettings.PlainMerge()))) {
      StyleRuntime style = StyleRegistry.style(engine(dir, s), new PointReads(), new BufferScans());
      assertInstanceOf(BufferLeftover.class, style, s.toString());
    }
    for (CompactionSettings s : List.of(CompactionSettings.defaults(),
        CompactionSettings.leveled(CompactionSettings.Buffer.defaults()),
        CompactionSettings.twoPhase(CompactionSettings.Buffer.defaults()))) {
      StyleRuntime style = StyleRegistry.style(engine(dir, s), new PointReads(), new BufferScans());
      assertInstanceOf(BufferStyle.class, style, s.toString());
    }
  }

  /** An engine context over {@code dir} with {@code s}; no block cache, so nothing to release. */
  private static Engine engine(Path dir, CompactionSettings s) {
    return new Engine(dir, Options.builder().blockCacheBytes(0).compaction(s).build());
  }

}

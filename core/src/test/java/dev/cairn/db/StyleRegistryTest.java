package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.cairn.Options;
import dev.cairn.compaction.buffer.BufferConfig;
import dev.cairn.compaction.dlsm.TwoPhaseCompactionPicker;
import dev.cairn.compaction.leveled.CompactionPriority;
import dev.cairn.compaction.leveled.LeveledCompactionPicker;
import dev.cairn.config.CompactionSettings;
import org.junit.jupiter.api.Test;

/** Settings in, picker and buffer settings out: what the registry maps each compaction setting to. */
class StyleRegistryTest {

  private static Options with(CompactionSettings s) {
    return Options.builder().compaction(s).build();
  }

  @Test
  void leveledExecutionsStartCompactionsByTheirPriorityAndTheBufferByTheRoundRobinSweep() {
    assertEquals(CompactionPriority.MIN_OVERLAP,
        ((LeveledCompactionPicker) StyleRegistry.picker(Options.defaults())).priority());
    assertEquals(CompactionPriority.ROUND_ROBIN, ((LeveledCompactionPicker) StyleRegistry.picker(with(
        CompactionSettings.leveled(new CompactionSettings.Table(CompactionPriority.ROUND_ROBIN))))).priority());
    CompactionSettings.Block block = CompactionSettings.Block.defaults();
    assertEquals(CompactionPriority.ROUND_ROBIN, ((LeveledCompactionPicker) StyleRegistry.picker(with(
        CompactionSettings.leveled(new CompactionSettings.Block(CompactionPriority.ROUND_ROBIN, block.policy(),
            block.io()))))).priority());
    assertEquals(CompactionPriority.ROUND_ROBIN, ((LeveledCompactionPicker) StyleRegistry.picker(with(
        CompactionSettings.leveled(CompactionSettings.Buffer.defaults())))).priority());
  }

  @Test
  void twoPhaseLevelsGetTheTwoPhasePicker() {
    assertInstanceOf(TwoPhaseCompactionPicker.class,
        StyleRegistry.picker(with(CompactionSettings.twoPhase(new CompactionSettings.PlainMerge()))));
    assertInstanceOf(TwoPhaseCompactionPicker.class,
        StyleRegistry.picker(with(CompactionSettings.twoPhase(CompactionSettings.Buffer.defaults()))));
  }

  @Test
  void theBufferRunsByItsOwnSettingsAndALeftOverBufferByTheDefaults() {
    BufferConfig mine = BufferConfig.defaults().withMaxSpaceFraction(0.1);
    assertEquals(mine, StyleRegistry.bufferConfig(with(
        CompactionSettings.twoPhase(new CompactionSettings.Buffer(mine)))));
    assertEquals(BufferConfig.defaults(), StyleRegistry.bufferConfig(Options.defaults()));
  }
}

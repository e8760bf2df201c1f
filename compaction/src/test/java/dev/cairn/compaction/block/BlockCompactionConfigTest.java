package dev.cairn.compaction.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.compaction.block.BlockCompactionConfig.LastLevel;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which merges take the last level's thresholds, under each rule. */
class BlockCompactionConfigTest {

  static Stream<Arguments> cases() {
    return Stream.of(
        // rule, output level, nothing below the range, deepest level with files -> last
        // A growing tree: level 5 holds files somewhere, none under this merge into level 3.
        Arguments.of(LastLevel.NOTHING_BELOW, 3, true, 5, true),
        Arguments.of(LastLevel.DEEPEST_LEVEL, 3, true, 5, false),
        // Data below the range: upper thresholds under either rule.
        Arguments.of(LastLevel.NOTHING_BELOW, 3, false, 5, false),
        Arguments.of(LastLevel.DEEPEST_LEVEL, 3, false, 5, false),
        // Into the deepest level: last under either rule.
        Arguments.of(LastLevel.NOTHING_BELOW, 5, true, 5, true),
        Arguments.of(LastLevel.DEEPEST_LEVEL, 5, true, 5, true),
        // Into a level below every file (the first merge into a new level): last.
        Arguments.of(LastLevel.DEEPEST_LEVEL, 4, true, 3, true),
        Arguments.of(LastLevel.DEEPEST_LEVEL, 1, true, -1, true));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void choosesTheLastLevelsThresholds(LastLevel rule, int outputLevel, boolean nothingBelow, int deepest,
      boolean last) {
    BlockCompactionConfig config = BlockCompactionConfig.defaults().withLastLevel(rule);
    assertEquals(last, config.intoLastLevel(outputLevel, nothingBelow, deepest));
    assertSame(last ? config.last() : config.upper(), config.thresholds(last));
  }

  @Test
  void theDefaultIsNothingBelowAndCopiesKeepTheRule() {
    BlockCompactionConfig d = BlockCompactionConfig.defaults();
    assertEquals(LastLevel.NOTHING_BELOW, d.lastLevel());
    BlockCompactionConfig deepest = d.withLastLevel(LastLevel.DEEPEST_LEVEL);
    assertEquals(LastLevel.DEEPEST_LEVEL, deepest.withForceBlock(true).lastLevel());
    assertEquals(new LevelThresholds(0.8, 0.5, 4.0, 3.0), LevelThresholds.UPPER_DEFAULT.withFilterReserve(3));
  }

  @Test
  void refusesAMissingRule() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new BlockCompactionConfig(LevelThresholds.UPPER_DEFAULT, LevelThresholds.LAST_DEFAULT, false, null));
    assertEquals("level thresholds and the last-level rule must not be null", e.getMessage());
  }
}

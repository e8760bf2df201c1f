package dev.cairn.compaction.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.compaction.block.TargetChoice.Mode;
import dev.cairn.compaction.block.TargetChoice.Reason;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Table-driven cases of Alg. 4 with the default thresholds (target file size 1000 bytes). */
class SelectiveCompactionRuleTest {
  private static final long TARGET = 1000;

  static Stream<Arguments> cases() {
    return Stream.of(
        // in, out, last, total, valid, blocks, dirty, append, force -> mode, reason
        Arguments.of(0, 1, false, 800, 800, 10, 1, 100, false, Mode.TABLE, Reason.FROM_L0),
        Arguments.of(1, 2, false, 800, 800, 10, 1, 100, false, Mode.BLOCK, Reason.FEW_DIRTY_BLOCKS),
        Arguments.of(1, 2, false, 800, 800, 10, 5, 100, false, Mode.BLOCK, Reason.FEW_DIRTY_BLOCKS),
        // Upper levels append up to 8 dirty blocks in 10 while the table stays half valid.
        Arguments.of(1, 2, false, 800, 800, 10, 8, 900, false, Mode.BLOCK, Reason.FEW_DIRTY_BLOCKS),
        Arguments.of(1, 2, false, 800, 800, 10, 9, 900, false, Mode.TABLE, Reason.HIGH_DIRTY_RATIO),
        // Six in ten with a small append would leave it 0.47 valid (320 + 100 of 900 bytes).
        Arguments.of(1, 2, false, 800, 800, 10, 6, 100, false, Mode.TABLE, Reason.VALID_FLOOR),
        Arguments.of(1, 2, false, 2000, 900, 10, 1, 100, false, Mode.TABLE, Reason.LOW_VALID_RATIO),
        // Valid at 0.5 now, 0.48 with the append (900 valid + 100 appended of 2,100 bytes).
        Arguments.of(1, 2, false, 2000, 1000, 10, 1, 100, false, Mode.TABLE, Reason.VALID_FLOOR),
        Arguments.of(1, 2, false, 2000, 1100, 10, 1, 100, false, Mode.BLOCK, Reason.FEW_DIRTY_BLOCKS),
        // Valid at 0.53 now; 560 valid + 300 appended of 1,800 bytes is 0.48, under the floor.
        Arguments.of(1, 2, false, 1500, 800, 10, 3, 300, false, Mode.TABLE, Reason.VALID_FLOOR),
        // The same append into a table with no garbage yet stays above it (0.78).
        Arguments.of(1, 2, false, 800, 800, 10, 3, 300, false, Mode.BLOCK, Reason.FEW_DIRTY_BLOCKS),
        Arguments.of(1, 2, false, 3900, 3900, 40, 1, 100, false, Mode.BLOCK, Reason.FEW_DIRTY_BLOCKS),
        Arguments.of(1, 2, false, 3950, 3950, 40, 1, 100, false, Mode.TABLE, Reason.TOO_LARGE),
        // The last level is stricter on every ratio and on size.
        Arguments.of(2, 3, true, 800, 800, 10, 6, 400, false, Mode.TABLE, Reason.HIGH_DIRTY_RATIO),
        Arguments.of(2, 3, true, 800, 800, 10, 3, 400, false, Mode.BLOCK, Reason.FEW_DIRTY_BLOCKS),
        // Three in ten with a small append would leave it 0.73 valid, under the last level's 0.75.
        Arguments.of(2, 3, true, 800, 800, 10, 3, 100, false, Mode.TABLE, Reason.VALID_FLOOR),
        Arguments.of(2, 3, true, 800, 800, 10, 2, 100, false, Mode.BLOCK, Reason.FEW_DIRTY_BLOCKS),
        Arguments.of(2, 3, true, 1000, 700, 10, 1, 100, false, Mode.TABLE, Reason.LOW_VALID_RATIO),
        Arguments.of(2, 3, true, 1950, 1950, 20, 1, 100, false, Mode.TABLE, Reason.TOO_LARGE),
        // Forcing skips the ratios and L0, never the size cap.
        Arguments.of(0, 1, false, 800, 800, 10, 10, 100, true, Mode.BLOCK, Reason.FORCED),
        Arguments.of(2, 3, true, 1000, 100, 10, 10, 100, true, Mode.BLOCK, Reason.FORCED),
        Arguments.of(2, 3, true, 1950, 1950, 20, 1, 100, true, Mode.TABLE, Reason.TOO_LARGE),
        // A table with no block (empty index) counts as all dirty.
        Arguments.of(1, 2, false, 100, 100, 0, 0, 10, false, Mode.TABLE, Reason.HIGH_DIRTY_RATIO));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void choosesAsAlgorithm4(int in, int out, boolean last, long total, long valid, long blocks,
      long dirty, long append, boolean force, Mode mode, Reason reason) {
    BlockCompactionConfig config = BlockCompactionConfig.defaults().withForceBlock(force);
    TargetChoice c = new SelectiveCompactionRule(config).choose(in, out, last, TARGET,
        new TargetStats(7, total, valid, blocks, dirty, append));
    assertEquals(new TargetChoice(7, mode, reason), c);
  }

  @Test
  void inconsistentStatsAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> new TargetStats(1, 10, 11, 1, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new TargetStats(1, 10, 10, 1, 2, 0));
    assertThrows(IllegalArgumentException.class, () -> new LevelThresholds(1.5, 0.5, 2, 0.1));
    assertThrows(IllegalArgumentException.class, () -> new LevelThresholds(0.5, 0.5, 0.5, 0.1));
  }
}

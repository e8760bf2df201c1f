package dev.cairn.compaction.block;

/**
 * BlockDB's selective compaction (Alg. 4): for one target table of a compaction into
 * {@code outputLevel}, table or block compaction. Pure; the order of the checks is the paper's:
 *
 * <ol>
 *   <li>compactions out of L0 rewrite tables: L0 files overlap each other, so the incoming keys
 *       spread over most blocks of L1 (the paper uses selective compaction below L1 only);
 *   <li>a table that would grow past {@code maxFileSizeFactor × targetFileBytes} is rewritten,
 *       which splits it into target-size tables (the paper's MAX_FILE_SIZE; Alg. 4 line 1 prints
 *       the comparison reversed, the text says "exceeding");
 *   <li>a table whose valid ratio is below {@code minValidRatio} is rewritten (garbage
 *       collection);
 *   <li>a table whose dirty ratio is above {@code maxDirtyRatio} is rewritten;
 *   <li>a table whose valid ratio would fall below {@code minValidRatio} with the append is
 *       rewritten ({@link TargetStats#validRatioAfterAppend}; ours, not the paper's): rule 3
 *       looks back and lets one append take a table below the floor, this one looks ahead, so
 *       that no table ever holds less than {@code minValidRatio} of valid bytes and a level's
 *       space amplification stays at most {@code 1 / minValidRatio};
 *   <li>otherwise its dirty blocks are merged and appended.
 * </ol>
 *
 * The last level uses stricter thresholds ({@link LevelThresholds#LAST_DEFAULT}), so that it leans
 * to table compaction and its space amplification stays bounded; the config says which merges
 * count as into it. {@code forceBlock} skips rules 1, 3 and 4 (tests), never rule 2.
 */
public final class SelectiveCompactionRule {
  private final BlockCompactionConfig config;

  public SelectiveCompactionRule(BlockCompactionConfig config) {
    this.config = config;
  }

  /**
   * @param inputLevel the level the compaction reads from
   * @param outputLevel the level of the target
   * @param lastLevel whether the merge takes the last level's thresholds
   *     ({@link BlockCompactionConfig#intoLastLevel})
   * @param targetFileBytes the plan's target output file size
   */
  public TargetChoice choose(int inputLevel, int outputLevel, boolean lastLevel,
      long targetFileBytes, TargetStats target) {
    LevelThresholds t = config.thresholds(lastLevel);
    long cap = (long) (t.maxFileSizeFactor() * targetFileBytes);
    if (target.totalBytes() + target.estimatedAppendBytes() > cap) {
      return table(target, TargetChoice.Reason.TOO_LARGE);
    }
    if (config.forceBlock()) {
      return new TargetChoice(target.fileId(), TargetChoice.Mode.BLOCK, TargetChoice.Reason.FORCED);
    }
    if (inputLevel == 0) {
      return table(target, TargetChoice.Reason.FROM_L0);
    }
    if (target.validRatio() < t.minValidRatio()) {
      return table(target, TargetChoice.Reason.LOW_VALID_RATIO);
    }
    if (target.dirtyRatio() > t.maxDirtyRatio()) {
      return table(target, TargetChoice.Reason.HIGH_DIRTY_RATIO);
    }
    if (target.validRatioAfterAppend() < t.minValidRatio()) {
      return table(target, TargetChoice.Reason.VALID_FLOOR);
    }
    return new TargetChoice(target.fileId(), TargetChoice.Mode.BLOCK,
        TargetChoice.Reason.FEW_DIRTY_BLOCKS);
  }

  private static TargetChoice table(TargetStats target, TargetChoice.Reason reason) {
    return new TargetChoice(target.fileId(), TargetChoice.Mode.TABLE, reason);
  }
}

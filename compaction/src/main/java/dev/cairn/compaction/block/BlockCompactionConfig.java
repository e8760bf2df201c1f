package dev.cairn.compaction.block;

/**
 * The policy of block compaction ({@code CompactionSettings.Block}; docs/compaction.md):
 * which targets the selective rule appends to. How the engine executes it (parallel sub-tasks,
 * lazy deletion, filter rebuilds) is core's {@code BlockCompactionExecution}.
 *
 * @param upper thresholds of output levels above the last one
 * @param last thresholds of the last level (and deeper); {@code lastLevel} says which that is
 * @param forceBlock tests only: every target of every compaction into level >= 1 is appended to
 *     (block compaction), whatever the ratios, as long as the table stays under its size cap
 * @param lastLevel which merges count as into the last level
 */
public record BlockCompactionConfig(
    LevelThresholds upper, LevelThresholds last, boolean forceBlock, LastLevel lastLevel) {

  /**
   * Which merges take the last level's thresholds. The two differ while a tree grows: a level
   * below the output may hold data over only part of the key space (files reach an empty level
   * by trivial moves), so a merge can have nothing below it without its output level being the
   * tree's deepest.
   */
  public enum LastLevel {
    /** A merge with nothing below its output level over its key range (the plan's bottommost). */
    NOTHING_BELOW,
    /** A merge whose output level is the deepest level holding a file, anywhere in the tree. */
    DEEPEST_LEVEL
  }

  public BlockCompactionConfig {
    if (upper == null || last == null || lastLevel == null) {
      throw new IllegalArgumentException("level thresholds and the last-level rule must not be null");
    }
  }

  /** The thresholds given, with the last level as the merges that have nothing below them. */
  public BlockCompactionConfig(LevelThresholds upper, LevelThresholds last, boolean forceBlock) {
    this(upper, last, forceBlock, LastLevel.NOTHING_BELOW);
  }

  /** The paper's choices where it gives numbers; ours (documented) where it does not. */
  public static BlockCompactionConfig defaults() {
    return new BlockCompactionConfig(LevelThresholds.UPPER_DEFAULT, LevelThresholds.LAST_DEFAULT, false);
  }

  public BlockCompactionConfig withForceBlock(boolean force) {
    return new BlockCompactionConfig(upper, last, force, lastLevel);
  }

  public BlockCompactionConfig withLastLevel(LastLevel rule) {
    return new BlockCompactionConfig(upper, last, forceBlock, rule);
  }

  /**
   * Whether a merge into {@code outputLevel} takes the last level's thresholds.
   *
   * @param bottommost whether nothing below {@code outputLevel} overlaps the merge's key range
   * @param deepestLevelWithFiles the deepest level holding a file before the merge (-1: none)
   */
  public boolean intoLastLevel(int outputLevel, boolean bottommost, int deepestLevelWithFiles) {
    return switch (lastLevel) {
      case NOTHING_BELOW -> bottommost;
      case DEEPEST_LEVEL -> outputLevel >= deepestLevelWithFiles;
    };
  }

  /** The thresholds of a merge, given whether it is into the last level ({@link #intoLastLevel}). */
  public LevelThresholds thresholds(boolean intoLastLevel) {
    return intoLastLevel ? last : upper;
  }
}

package dev.cairn.compaction.block;

/**
 * The policy of block compaction ({@code CompactionSettings.Block}; docs/compaction.md):
 * which targets the selective rule appends to. How the engine executes it (parallel sub-tasks,
 * lazy deletion, filter rebuilds) is core's {@code BlockCompactionExecution}.
 *
 * @param upper thresholds of output levels above the last one
 * @param last thresholds of the last level that holds data (and deeper)
 * @param forceBlock tests only: every target of every compaction into level >= 1 is appended to
 *     (block compaction), whatever the ratios, as long as the table stays under its size cap
 */
public record BlockCompactionConfig(LevelThresholds upper, LevelThresholds last, boolean forceBlock) {

  public BlockCompactionConfig {
    if (upper == null || last == null) {
      throw new IllegalArgumentException("level thresholds must not be null");
    }
  }

  /** The paper's choices where it gives numbers; ours (documented) where it does not. */
  public static BlockCompactionConfig defaults() {
    return new BlockCompactionConfig(LevelThresholds.UPPER_DEFAULT, LevelThresholds.LAST_DEFAULT, false);
  }

  public BlockCompactionConfig withForceBlock(boolean force) {
    return new BlockCompactionConfig(upper, last, force);
  }

  /** The thresholds of {@code level}, given the last level that holds data. */
  public LevelThresholds thresholds(int level, boolean lastLevel) {
    return lastLevel ? last : upper;
  }
}

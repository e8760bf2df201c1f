package dev.cairn.compaction.leveled;

import dev.cairn.compaction.ByteSizes;
import dev.cairn.compaction.OutputLimits;

/**
 * The knobs of LevelDB-style leveled compaction. Defaults are LevelDB's.
 *
 * @param numLevels levels in the tree, L0 included (LevelDB: 7)
 * @param l0CompactionTrigger L0 file count at which L0 scores 1 (LevelDB: 4)
 * @param baseLevelBytes the size L1 may reach before it scores 1 (LevelDB: 10 MiB)
 * @param levelSizeRatio how much larger each level below L1 may grow than the one above (10)
 * @param targetFileBytes the size at which the executor cuts output files (LevelDB: 2 MiB);
 *     also the step size of a manual compaction below L0
 * @param maxGrandparentOverlapBytes a single output file, or a trivially moved file, may overlap
 *     at most this much of the grandparent level (LevelDB: 10 × target)
 * @param maxExpandedBytes a compaction grows its input-level files only while inputs plus targets
 *     stay below this (LevelDB: 25 × target)
 */
public record LeveledConfig(
    int numLevels,
    int l0CompactionTrigger,
    long baseLevelBytes,
    double levelSizeRatio,
    long targetFileBytes,
    long maxGrandparentOverlapBytes,
    long maxExpandedBytes) {

  /** Deep enough for any sane ratio; a level limit beyond it would overflow a long anyway. */
  public static final int MAX_LEVELS = 32;

  public LeveledConfig {
    if (numLevels < 2 || numLevels > MAX_LEVELS) {
      throw new IllegalArgumentException(
          "numLevels must be in [2, " + MAX_LEVELS + "]: " + numLevels);
    }
    if (l0CompactionTrigger < 1) {
      throw new IllegalArgumentException("l0CompactionTrigger must be >= 1: " + l0CompactionTrigger);
    }
    if (baseLevelBytes <= 0) {
      throw new IllegalArgumentException("baseLevelBytes must be > 0: " + baseLevelBytes);
    }
    // A ratio <= 1 would make deeper levels no larger than shallower ones: data would never settle.
    if (!(levelSizeRatio > 1.0) || Double.isInfinite(levelSizeRatio)) {
      throw new IllegalArgumentException("levelSizeRatio must be finite and > 1: " + levelSizeRatio);
    }
    if (targetFileBytes <= 0) {
      throw new IllegalArgumentException("targetFileBytes must be > 0: " + targetFileBytes);
    }
    if (maxGrandparentOverlapBytes < 0) {
      throw new IllegalArgumentException(
          "maxGrandparentOverlapBytes must be >= 0: " + maxGrandparentOverlapBytes);
    }
    if (maxExpandedBytes < targetFileBytes) {
      throw new IllegalArgumentException(
          "maxExpandedBytes " + maxExpandedBytes + " < targetFileBytes " + targetFileBytes);
    }
  }

  /** LevelDB's defaults: 7 levels, trigger 4, 10 MiB base, ratio 10, 2 MiB files. */
  public static LeveledConfig defaults() {
    return of(7, 4, 10 * ByteSizes.MIB, 10.0, 2 * ByteSizes.MIB);
  }

  /** A config whose grandparent and expansion limits follow LevelDB: 10× and 25× the target. */
  public static LeveledConfig of(
      int numLevels,
      int l0CompactionTrigger,
      long baseLevelBytes,
      double levelSizeRatio,
      long targetFileBytes) {
    return new LeveledConfig(
        numLevels,
        l0CompactionTrigger,
        baseLevelBytes,
        levelSizeRatio,
        targetFileBytes,
        Math.multiplyExact(10, targetFileBytes),
        Math.multiplyExact(25, targetFileBytes));
  }

  /**
   * The size at which level {@code level} (>= 1) scores 1: {@code baseLevelBytes} for L1, times
   * {@code levelSizeRatio} for each level below; saturates at {@link Long#MAX_VALUE}.
   */
  public long maxBytesForLevel(int level) {
    if (level < 1 || level >= numLevels) {
      throw new IllegalArgumentException("no size limit for L" + level);
    }
    double bytes = baseLevelBytes;
    for (int i = 1; i < level; i++) {
      bytes *= levelSizeRatio;
    }
    return bytes >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) bytes;
  }

  public OutputLimits outputLimits() {
    return new OutputLimits(targetFileBytes, maxGrandparentOverlapBytes);
  }
}

package dev.cairn.compaction.block;

/**
 * Settings of block compaction ({@code Options.CompactionStyle.BLOCK}); see docs/compaction.md.
 *
 * @param upper thresholds of output levels above the last one
 * @param last thresholds of the last level that holds data (and deeper)
 * @param forceBlock tests only: every target of every compaction into level >= 1 is appended to
 *     (block compaction), whatever the ratios, as long as the table stays under its size cap
 * @param parallelism worker threads merging the targets of one compaction in parallel (>= 1)
 * @param lazyDeletionBytes obsolete files are deleted once they add up to this many bytes
 *     (BlockDB's lazy deletion; the paper uses 200 MB), unless {@code Options.obsoleteFileBatchBytes}
 *     is set
 * @param maxFilterFalsePositiveRate appended keys are ORed into a table's filter while its
 *     estimated false-positive rate stays at or below this; beyond it the filter is rebuilt
 */
public record BlockCompactionConfig(
    LevelThresholds upper,
    LevelThresholds last,
    boolean forceBlock,
    int parallelism,
    long lazyDeletionBytes,
    double maxFilterFalsePositiveRate) {

  public BlockCompactionConfig {
    if (upper == null || last == null) {
      throw new IllegalArgumentException("level thresholds must not be null");
    }
    if (parallelism < 1 || parallelism > 64 || lazyDeletionBytes < 0) {
      throw new IllegalArgumentException(
          "parallelism must lie in [1, 64] and lazyDeletionBytes >= 0: " + parallelism + ", "
              + lazyDeletionBytes);
    }
    if (!(maxFilterFalsePositiveRate > 0 && maxFilterFalsePositiveRate < 1)) {
      throw new IllegalArgumentException(
          "maxFilterFalsePositiveRate must lie in (0, 1): " + maxFilterFalsePositiveRate);
    }
  }

  /** The paper's choices where it gives numbers; ours (documented) where it does not. */
  public static BlockCompactionConfig defaults() {
    return new BlockCompactionConfig(LevelThresholds.UPPER_DEFAULT, LevelThresholds.LAST_DEFAULT,
        false, 4, 200L << 20, 0.01);
  }

  public BlockCompactionConfig withForceBlock(boolean force) {
    return new BlockCompactionConfig(upper, last, force, parallelism, lazyDeletionBytes,
        maxFilterFalsePositiveRate);
  }

  public BlockCompactionConfig withLazyDeletionBytes(long bytes) {
    return new BlockCompactionConfig(upper, last, forceBlock, parallelism, bytes,
        maxFilterFalsePositiveRate);
  }

  /** The thresholds of {@code level}, given the last level that holds data. */
  public LevelThresholds thresholds(int level, boolean lastLevel) {
    return lastLevel ? last : upper;
  }
}

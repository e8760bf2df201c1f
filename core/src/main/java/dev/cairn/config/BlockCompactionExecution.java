package dev.cairn.config;

/**
 * How the engine executes block compaction ({@link CompactionSettings.Block}); what it decides is
 * {@link dev.cairn.compaction.block.BlockCompactionConfig}. See docs/compaction.md, "Block
 * compaction".
 *
 * @param parallelism worker threads merging the targets of one compaction in parallel (>= 1)
 * @param lazyDeletionBytes obsolete files are deleted once they add up to this many bytes
 *     (BlockDB's lazy deletion; the paper uses 200 MB), unless {@link
 *     dev.cairn.Options#obsoleteFileBatchBytes()} is set
 * @param maxFilterFalsePositiveRate appended keys are ORed into a table's filter while its
 *     estimated false-positive rate stays at or below this; beyond it the filter is rebuilt
 */
public record BlockCompactionExecution(int parallelism, long lazyDeletionBytes, double maxFilterFalsePositiveRate) {

  public BlockCompactionExecution {
    if (parallelism < 1 || parallelism > 64 || lazyDeletionBytes < 0) {
      throw new IllegalArgumentException(
          "block compaction parallelism must lie in [1, 64] and lazyDeletionBytes >= 0: " + parallelism + ", "
              + lazyDeletionBytes);
    }
    if (!(maxFilterFalsePositiveRate > 0 && maxFilterFalsePositiveRate < 1)) {
      throw new IllegalArgumentException(
          "block compaction maxFilterFalsePositiveRate must lie in (0, 1): " + maxFilterFalsePositiveRate);
    }
  }

  /** Four workers, the paper's 200 MB lazy deletion, filters rebuilt past a 1% false-positive rate. */
  public static BlockCompactionExecution defaults() {
    return new BlockCompactionExecution(4, 200L << 20, 0.01);
  }

  public BlockCompactionExecution withParallelism(int v) {
    return new BlockCompactionExecution(v, lazyDeletionBytes, maxFilterFalsePositiveRate);
  }

  public BlockCompactionExecution withLazyDeletionBytes(long v) {
    return new BlockCompactionExecution(parallelism, v, maxFilterFalsePositiveRate);
  }
}

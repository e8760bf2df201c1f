package dev.cairn.compaction.block;

/**
 * Selective-compaction thresholds of one output level (BlockDB Alg. 4).
 *
 * @param maxDirtyRatio above this fraction of dirty blocks, rewrite the table: appending would
 *     rewrite almost as much and leave the old blocks as garbage
 * @param minValidRatio below this fraction of valid bytes, rewrite the table to collect garbage
 * @param maxFileSizeFactor a table that would grow past this multiple of the target file size is
 *     rewritten (split into target-size tables) instead of appended to
 * @param filterReserve extra Bloom filter capacity, as a fraction of the keys a table is built
 *     with, so that appended keys fit into the same filter (paper: 40% upper levels, 10% last)
 */
public record LevelThresholds(
    double maxDirtyRatio, double minValidRatio, double maxFileSizeFactor, double filterReserve) {

  public LevelThresholds {
    if (!(maxDirtyRatio >= 0 && maxDirtyRatio <= 1) || !(minValidRatio >= 0 && minValidRatio <= 1)) {
      throw new IllegalArgumentException(
          "ratios must lie in [0, 1]: dirty " + maxDirtyRatio + ", valid " + minValidRatio);
    }
    if (!(maxFileSizeFactor >= 1) || !(filterReserve >= 0 && filterReserve <= 4)) {
      throw new IllegalArgumentException(
          "maxFileSizeFactor must be >= 1 and filterReserve in [0, 4]: " + maxFileSizeFactor
              + ", " + filterReserve);
    }
  }

  /** Upper levels favour block compaction: write amplification is paid at every level. */
  public static final LevelThresholds UPPER_DEFAULT = new LevelThresholds(0.5, 0.5, 4.0, 0.4);

  /**
   * The last level favours table compaction: it holds most of the data, so its garbage is most
   * of the space amplification, and range scans read it most.
   */
  public static final LevelThresholds LAST_DEFAULT = new LevelThresholds(0.25, 0.75, 2.0, 0.1);
}

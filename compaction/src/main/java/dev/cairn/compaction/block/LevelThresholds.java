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

  /*
   * The dirty-ratio caps follow from the dirty ratio a merge is expected to bring. An upper
   * level's table receiving a tenth of its entries (size ratio a = 10) with b entries a block has
   * about 1 - e^(-b/a) of its blocks dirty: 0.33 for 1 KiB values in 4 KiB blocks, and during a
   * load, when the level above runs over its size, more (the per-level decision counts measured
   * means of 0.54-0.65 into level 2 of a 5 GiB load; docs/decisions/0026). A cap below the
   * expected ratio makes a level rewrite every table; an append saves (1 - d) of a rewrite and
   * leaves d as garbage, which the valid floor bounds whatever the cap. So the upper levels'
   * cap sits above what a load brings (0.8), and the last level's, which holds most of the data
   * and so most of the garbage, between the balanced tree's 0.33 and the load's 0.7 (0.5).
   */

  /** These thresholds with another {@code filterReserve}. */
  public LevelThresholds withFilterReserve(double reserve) {
    return new LevelThresholds(maxDirtyRatio, minValidRatio, maxFileSizeFactor, reserve);
  }

  /** Upper levels favour block compaction: write amplification is paid at every level. */
  public static final LevelThresholds UPPER_DEFAULT = new LevelThresholds(0.8, 0.5, 4.0, 0.4);

  /**
   * The last level leans to table compaction: it holds most of the data, so its garbage is most
   * of the space amplification, and range scans read it most.
   */
  public static final LevelThresholds LAST_DEFAULT = new LevelThresholds(0.5, 0.75, 2.0, 0.1);

  /**
   * Upper levels capped at half their blocks dirty: the paper's leaning without the ratios merges
   * bring, below what a load brings, so most merges rewrite. For A/B runs.
   */
  public static final LevelThresholds UPPER_HALF_DIRTY = new LevelThresholds(0.5, 0.5, 4.0, 0.4);

  /** The last level capped at a quarter of its blocks dirty, beside {@link #UPPER_HALF_DIRTY}. */
  public static final LevelThresholds LAST_QUARTER_DIRTY = new LevelThresholds(0.25, 0.75, 2.0, 0.1);
}

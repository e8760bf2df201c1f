package dev.cairn.compaction.buffer;

/**
 * When the trim runs and how finely it cuts, derived from the tree instead of fixed
 * (docs/compaction.md, "Trim pacing"). LSbM trims every 30 s with 2 MB units, at a write rate
 * of about 1 MB/s into a 1 GB level 1: a pass per 32nd of level 1 written, a unit per 512th of
 * it. Fixed in seconds and bytes, the same settings trim a tree a hundred times smaller (or
 * written a hundred times faster) a hundred times too rarely: measured, the hit ratio stepped
 * down every 30 s (docs/compaction.md, "Trim pacing"). Expressed against the base level, they follow the tree's churn at
 * any size and write rate.
 *
 * @param bytesPerPass user bytes written that make a pass due; 0 when passes are paced by time
 *     alone
 * @param maxIntervalMillis the longest time between passes, writes or not (with no writes, the
 *     trim still empties a buffer no read keeps warm)
 * @param unitBytes the trim unit ({@link TrimUnits}): runs of consecutive data blocks of about
 *     this size, at least one block
 */
public record TrimPacing(long bytesPerPass, long maxIntervalMillis, long unitBytes) {
  /** Units per base level when the configured unit is 0 (derived): the paper's 2 MB in 1 GB. */
  public static final int UNITS_PER_BASE_LEVEL = 512;

  public TrimPacing {
    if (bytesPerPass < 0 || maxIntervalMillis < 1 || unitBytes < 1) {
      throw new IllegalArgumentException("bad trim pacing: " + bytesPerPass + " bytes per pass, max interval "
          + maxIntervalMillis + " ms, unit " + unitBytes + " bytes");
    }
  }

  /** The pacing of {@code config} over a tree whose base level holds {@code baseLevelBytes}, in blocks of {@code blockBytes}. */
  public static TrimPacing of(BufferConfig config, long baseLevelBytes, long blockBytes) {
    if (baseLevelBytes < 1 || blockBytes < 1) {
      throw new IllegalArgumentException("bad tree for trim pacing: base level " + baseLevelBytes + " bytes, block "
          + blockBytes + " bytes");
    }
    long perPass = config.trimPassesPerBaseLevel() == 0 ? 0 : Math.max(1, baseLevelBytes / config.trimPassesPerBaseLevel());
    long unit = config.trimUnitBytes() > 0
        ? config.trimUnitBytes()
        : Math.max(blockBytes, baseLevelBytes / UNITS_PER_BASE_LEVEL);
    return new TrimPacing(perPass, config.trimIntervalMillis(), unit);
  }

  /**
   * Whether a pass is due, {@code bytesWritten} and {@code millis} after the previous one, the
   * buffer having grown by {@code bufferGrowth} bytes of arrivals since it. With writes, their
   * pace alone. With none since the previous pass, arrivals stand in for them: a compaction
   * backlog draining after the writes stop (a load ending, a read-only phase) appends files that
   * hold a few warm blocks each, and waiting the whole interval for the pass that cuts them to
   * those blocks (and rewrites the parts) keeps the buffer at its space bound for that long
   * (measured on read-only RangeHot: 1.18x table compaction's peak space).
   */
  public boolean due(long bytesWritten, long bufferGrowth, long millis) {
    if (millis >= maxIntervalMillis) {
      return true;
    }
    if (bytesPerPass == 0) {
      return false;
    }
    return bytesWritten >= bytesPerPass || (bytesWritten == 0 && bufferGrowth >= bytesPerPass);
  }

  /** How often the trim task should look whether a pass is due: often enough to keep the pace. */
  public long pollMillis() {
    return Math.min(maxIntervalMillis, bytesPerPass == 0 ? maxIntervalMillis : 100);
  }
}

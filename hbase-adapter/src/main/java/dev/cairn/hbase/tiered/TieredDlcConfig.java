package dev.cairn.hbase.tiered;

/**
 * The knobs of {@link TieredDlcPolicy}.
 *
 * @param boundMarginFiles a delay ends when the store holds {@code blockingFiles -
 *     boundMarginFiles} files, so that writes never stall for the delay's sake (HBase blocks
 *     flushes at {@code blockingFiles}); at least 1
 * @param maxDelayMillis a compaction held back this long runs whatever the load (0: no time bound,
 *     the file bound alone)
 * @param partTriggerFreshFiles under high load, this many fresh files at the newest end of the
 *     store are merged into one (DLC's bursty "resume part"), sparing the older, larger files
 * @param freshMaxBytes a file is fresh while it is at most this large (about a flush or two): a
 *     part run's output is larger, so it is never merged again by a part run
 * @param minFiles the fewest files a compaction merges (HBase's {@code hbase.hstore.compaction.min})
 * @param maxFiles the most files a compaction merges (HBase's {@code hbase.hstore.compaction.max})
 * @param ratio a window of files is "in ratio" when no file is larger than this times the others
 *     together (HBase's {@code hbase.hstore.compaction.ratio}): the cold-first choice only picks
 *     windows HBase's own rule would accept, so that it never trades write amplification for cache
 */
public record TieredDlcConfig(
    int boundMarginFiles, long maxDelayMillis, int partTriggerFreshFiles, long freshMaxBytes,
    int minFiles, int maxFiles, double ratio) {

  public TieredDlcConfig {
    range("boundMarginFiles", boundMarginFiles, 1, 1000);
    range("maxDelayMillis", maxDelayMillis, 0, 86_400_000);
    range("partTriggerFreshFiles", partTriggerFreshFiles, 2, 1000);
    range("freshMaxBytes", freshMaxBytes, 1, Long.MAX_VALUE);
    range("minFiles", minFiles, 2, 1000);
    range("maxFiles", maxFiles, minFiles, 1000);
    if (!(ratio > 0) || Double.isInfinite(ratio)) {
      throw new IllegalArgumentException("ratio must be finite and > 0: " + ratio);
    }
  }

  /**
   * HBase's defaults around a store whose flushes write about {@code flushBytes}: merge 3 to 10
   * files at ratio 1.2; end a delay 4 files before the blocking count or after 60 s; a part run of
   * 4 fresh files, fresh up to twice a flush.
   */
  public static TieredDlcConfig defaults(long flushBytes) {
    return new TieredDlcConfig(4, 60_000, 4, 2 * flushBytes, 3, 10, 1.2);
  }

  /** Whether a delay ends after {@link #maxDelayMillis}. */
  public boolean delayIsBounded() {
    return maxDelayMillis > 0;
  }

  private static void range(String name, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "]: " + value);
    }
  }
}

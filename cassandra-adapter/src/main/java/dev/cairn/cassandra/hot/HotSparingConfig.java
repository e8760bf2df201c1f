package dev.cairn.cassandra.hot;

/**
 * The knobs of cache-aware input choice ({@link ColdFirstChooser}).
 *
 * @param hotFactor a file is hot when its reads per byte are at least this many times the tree's
 *     average ({@link ReadHeat#isHot}); must be > 1, or every read file would be hot
 * @param maxLevelScore a level whose score (size over its limit) has reached this may not be
 *     postponed: its coldest plan runs even if hot, so a level grows at most this far past its
 *     limit for the sake of the cache
 * @param maxPostponeMillis a level postponed this long runs its coldest plan even if hot
 */
public record HotSparingConfig(double hotFactor, double maxLevelScore, long maxPostponeMillis) {

  public HotSparingConfig {
    if (!(hotFactor > 1.0) || Double.isInfinite(hotFactor)) {
      throw new IllegalArgumentException("hotFactor must be finite and > 1: " + hotFactor);
    }
    if (!(maxLevelScore >= 1.0) || Double.isInfinite(maxLevelScore)) {
      throw new IllegalArgumentException("maxLevelScore must be finite and >= 1: " + maxLevelScore);
    }
    if (maxPostponeMillis < 0 || maxPostponeMillis > 86_400_000) {
      throw new IllegalArgumentException(
          "maxPostponeMillis must be in [0, 86400000]: " + maxPostponeMillis);
    }
  }

  /** Hot at 2x the average read density; postpone up to score 2 and for at most 60 s. */
  public static HotSparingConfig defaults() {
    return new HotSparingConfig(2.0, 2.0, 60_000);
  }
}

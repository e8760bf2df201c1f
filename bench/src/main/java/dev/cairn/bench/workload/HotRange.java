package dev.cairn.bench.workload;

import java.util.SplittableRandom;

/**
 * LSbM-tree section 6.1's "RangeHot" reads: a fraction {@code hotProbability} of draws falls
 * uniformly in one contiguous range of ids {@code [hotStart, hotStart + hotCount)}, the rest
 * uniformly outside it. Keys encode ids in order, so the hot range is a contiguous key range.
 */
public final class HotRange implements KeyChooser {
  private final long n;
  private final long hotStart;
  private final long hotCount;
  private final double hotProbability;

  public HotRange(long n, long hotStart, long hotCount, double hotProbability) {
    if (hotCount < 1 || hotStart < 0 || hotStart + hotCount > n) {
      throw new IllegalArgumentException(
          "hot range [" + hotStart + ", " + (hotStart + hotCount) + ") does not fit in [0, " + n + ")");
    }
    this.n = n;
    this.hotStart = hotStart;
    this.hotCount = hotCount;
    this.hotProbability = hotCount == n ? 1.0 : hotProbability;
  }

  /** A hot range of {@code hotFraction} of the ids, centred in the key space. */
  public static HotRange centred(long n, double hotFraction, double hotProbability) {
    long count = Math.max(1, Math.round(n * hotFraction));
    return new HotRange(n, (n - count) / 2, count, hotProbability);
  }

  public long hotStart() {
    return hotStart;
  }

  public long hotCount() {
    return hotCount;
  }

  public boolean isHot(long id) {
    return id >= hotStart && id < hotStart + hotCount;
  }

  @Override
  public long next(SplittableRandom random) {
    if (random.nextDouble() < hotProbability) {
      return hotStart + random.nextLong(hotCount);
    }
    long cold = random.nextLong(n - hotCount);
    return cold < hotStart ? cold : cold + hotCount;
  }
}

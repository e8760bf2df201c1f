package dev.cairn.compaction.buffer;

/**
 * What a block cache miss of a point read costs, as the engine measured it, and the space bound
 * that follows from it (docs/compaction.md, "What a miss costs"). The buffer exists to spare reads
 * the misses a merge causes by moving warm data to new addresses; where a miss costs little (a
 * fast device, the operating system's page cache) the level's new file re-warms within a second
 * and the buffer buys no hit ratio, while its files still cost disk space and its walk CPU. So the
 * bound scales with the miss's cost: the full {@code maxSpaceFraction} from {@code
 * fullBoundMissMicros} up, in proportion below it, and nothing once a miss costs next to nothing.
 *
 * <p>An estimate is built window by window (the block reads timed between two samples): a
 * window of fewer than {@link #MIN_WINDOW_READS} reads says too little and leaves the estimate
 * as it was; a larger one moves it halfway to the window's mean, so one slow second (a burst of
 * compaction I/O) does not swing the bound while a device's change shows within a few windows.
 * Immutable.
 *
 * @param meanMicros the estimated cost of one block read from the device, in microseconds;
 *     {@code NaN} while unknown
 */
public record MissCost(double meanMicros) {
  /** No block read timed yet: the bound is the configured one (the paper's buffer). */
  public static final MissCost UNKNOWN = new MissCost(Double.NaN);

  /** A window of fewer timed block reads leaves the estimate unchanged. */
  public static final long MIN_WINDOW_READS = 64;

  public MissCost {
    if (!(Double.isNaN(meanMicros) || meanMicros >= 0)) {
      throw new IllegalArgumentException("miss cost must be >= 0 or unknown: " + meanMicros);
    }
  }

  public boolean known() {
    return !Double.isNaN(meanMicros);
  }

  /** The estimate after a window in which {@code reads} block reads took {@code nanos} in all. */
  public MissCost afterWindow(long reads, long nanos) {
    if (reads < 0 || nanos < 0) {
      throw new IllegalArgumentException("negative miss window: " + reads + " reads, " + nanos + " ns");
    }
    if (reads < MIN_WINDOW_READS) {
      return this;
    }
    double window = nanos / 1000.0 / reads;
    return new MissCost(known() ? (meanMicros + window) / 2 : window);
  }

  /**
   * The buffer's space bound, as a fraction of the levels' bytes: {@code maxSpaceFraction} while
   * the cost is unknown or at least {@code fullBoundMissMicros}, and {@code maxSpaceFraction *
   * meanMicros / fullBoundMissMicros} below it. {@code fullBoundMissMicros == 0} keeps the full
   * bound whatever a miss costs.
   */
  public double boundFraction(double maxSpaceFraction, double fullBoundMissMicros) {
    if (!(maxSpaceFraction >= 0) || !(fullBoundMissMicros >= 0)) {
      throw new IllegalArgumentException("bad bound input: fraction " + maxSpaceFraction + ", full-bound miss "
          + fullBoundMissMicros + " us");
    }
    if (fullBoundMissMicros == 0 || !known() || meanMicros >= fullBoundMissMicros) {
      return maxSpaceFraction;
    }
    return maxSpaceFraction * meanMicros / fullBoundMissMicros;
  }
}

package dev.cairn.compaction.dlc;

/**
 * The parameters of Delayed L0 Compaction (DLC, the paper's Table 2 plus the bursty-compaction
 * thresholds of section 5), validated on construction. Bandwidths are bytes per second (decimal:
 * 1 MB/s = 1,000,000 B/s, as device figures are quoted). docs/dlc.md explains each default and
 * how to set it for another device.
 *
 * <p>The defaults are derived from this machine's measured device (docs/dlc.md, "Defaults"): the
 * client's bandwidth of Eq. 6 is random block reads, whose ceiling here is about 55 MB/s at queue
 * depth 1 (13.5k 4 KiB reads/s), so {@code io_high_limit} and {@code io_low_limit} keep the
 * paper's ratios (300 and 180 of 350) against that ceiling; {@code io_limit}, which compaction
 * shares, is the sequential read figure (0.83 GB/s; sequential writes run at 1.75 GB/s).
 *
 * @param intervalMillis the load model's interval (paper: {@code time_interval}, 1 s)
 * @param estimator which equation turns the interval's counters into client bandwidth
 * @param compressionRatio γ of Eq. 6: stored over cached block size (1.0: Cairn's blocks are
 *     stored uncompressed)
 * @param getCostBytes Eq. 3's ω_get·B_kv: device bytes one get costs on average
 * @param scanCostBytes Eq. 3's ω_scan·B_kv: device bytes one scan costs on average
 * @param ioLimitBytesPerSecond the device bandwidth shared by clients and compaction (paper:
 *     {@code io_limit}); Eq. 2 gives compaction what the clients leave of it
 * @param ioHighLimitBytesPerSecond client bandwidth above which the load is high
 * @param ioLowLimitBytesPerSecond client bandwidth below which an interval counts towards low
 * @param softness consecutive low intervals before a high load is declared low
 * @param delayPolicy what is held back under high load (section 4.1)
 * @param partTriggerFreshFiles bursty "resume part" runs when this many freshly flushed L0 files
 *     have accumulated under high load
 * @param partTriggerFreshBytes ... or when they hold this many bytes; 0 disables
 * @param fullTriggerL0Files bursty "resume full" (all of L0 into L1) runs at this many L0 files
 * @param fullTriggerL0Bytes ... or at this many L0 bytes; 0 disables
 * @param partRunsBeforeFull after this many part runs the next bursty compaction is a full one
 *     (the paper uses four)
 * @param minCompactionBytesPerSecond the floor of the compaction rate, so compaction never
 *     starves however busy the clients are
 * @param rateBufferBytesPerSecond ε of Eq. 2
 * @param maxDelayMillis a hard bound on the delay: once an L0 compaction has been held back this
 *     long under high load, it runs whatever the load (0: no bound, the engine's default, which
 *     relies on the L0 stop trigger instead; a host whose reads face every L0 file unbounded
 *     needs one)
 */
public record DlcConfig(
    long intervalMillis,
    Estimator estimator,
    double compressionRatio,
    long getCostBytes,
    long scanCostBytes,
    long ioLimitBytesPerSecond,
    long ioHighLimitBytesPerSecond,
    long ioLowLimitBytesPerSecond,
    int softness,
    DelayPolicy delayPolicy,
    int partTriggerFreshFiles,
    long partTriggerFreshBytes,
    int fullTriggerL0Files,
    long fullTriggerL0Bytes,
    int partRunsBeforeFull,
    long minCompactionBytesPerSecond,
    long rateBufferBytesPerSecond,
    long maxDelayMillis) {

  /** How client bandwidth is estimated (section 3.2.1). */
  public enum Estimator {
    /** Eq. 6: γ · blocks added to the block cache · block bytes / interval. Default. */
    BLOCK_CACHE,
    /** Eq. 3: (ω_get · gets + ω_scan · scans) · B_kv / interval; for engines without a cache. */
    WEIGHTED_OPS
  }

  /** What DLC holds back under high load (section 4.1). */
  public enum DelayPolicy {
    /** Delay L0→L1 and L0→L0 compactions. Default, as in the paper. */
    DELAY_FULL,
    /**
     * Delay L0→L1 only; when L0 reaches the compaction trigger, merge its freshly flushed files
     * into one L0 table instead (trading a short dip for fewer L0 files to read).
     */
    DELAY_PART
  }

  private static final long MB = 1_000_000;

  public DlcConfig {
    if (estimator == null || delayPolicy == null) {
      throw new IllegalArgumentException("dlc: estimator and delayPolicy must not be null");
    }
    range("intervalMillis", intervalMillis, 10, 3_600_000);
    if (!(compressionRatio > 0 && compressionRatio <= 1000)) {
      throw new IllegalArgumentException("dlc: compressionRatio = " + compressionRatio + " is out of range (0, 1000]");
    }
    range("getCostBytes", getCostBytes, 0, 1L << 30);
    range("scanCostBytes", scanCostBytes, 0, 1L << 30);
    range("ioLimitBytesPerSecond", ioLimitBytesPerSecond, 1, Long.MAX_VALUE);
    range("ioHighLimitBytesPerSecond", ioHighLimitBytesPerSecond, 1, ioLimitBytesPerSecond);
    range("ioLowLimitBytesPerSecond", ioLowLimitBytesPerSecond, 0, ioHighLimitBytesPerSecond);
    range("softness", softness, 1, 1000);
    range("partTriggerFreshFiles", partTriggerFreshFiles, 2, 1000);
    range("partTriggerFreshBytes", partTriggerFreshBytes, 0, Long.MAX_VALUE);
    range("fullTriggerL0Files", fullTriggerL0Files, 2, 1000);
    range("fullTriggerL0Bytes", fullTriggerL0Bytes, 0, Long.MAX_VALUE);
    range("partRunsBeforeFull", partRunsBeforeFull, 1, 1000);
    range("minCompactionBytesPerSecond", minCompactionBytesPerSecond, 1, ioLimitBytesPerSecond);
    range("rateBufferBytesPerSecond", rateBufferBytesPerSecond, 0, ioLimitBytesPerSecond);
    range("maxDelayMillis", maxDelayMillis, 0, 86_400_000);
  }

  /** Whether {@link #maxDelayMillis} bounds the delay. */
  public boolean delayIsBounded() {
    return maxDelayMillis > 0;
  }

  /** The documented defaults (docs/dlc.md). */
  public static DlcConfig defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder(this);
  }

  /** Eq. 2: what the clients leave of the device for compaction, never below the floor. */
  public double compactionRate(double clientBytesPerSecond) {
    double left = ioLimitBytesPerSecond - clientBytesPerSecond - rateBufferBytesPerSecond;
    return Math.max(minCompactionBytesPerSecond, left);
  }

  private static void range(String name, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          "dlc: " + name + " = " + value + " is out of range [" + min + ", " + max + "]");
    }
  }

  /** Mutable builder; {@link #build()} validates. */
  public static final class Builder {
    private long intervalMillis = 1000;
    private Estimator estimator = Estimator.BLOCK_CACHE;
    private double compressionRatio = 1.0;
    private long getCostBytes = 4096;
    private long scanCostBytes = 16384;
    private long ioLimitBytesPerSecond = 800 * MB;
    private long ioHighLimitBytesPerSecond = 48 * MB;
    private long ioLowLimitBytesPerSecond = 28 * MB;
    private int softness = 3;
    private DelayPolicy delayPolicy = DelayPolicy.DELAY_FULL;
    private int partTriggerFreshFiles = 4;
    private long partTriggerFreshBytes = 0;
    private int fullTriggerL0Files = 7;
    private long fullTriggerL0Bytes = 0;
    private int partRunsBeforeFull = 4;
    private long minCompactionBytesPerSecond = 80 * MB;
    private long rateBufferBytesPerSecond = 8 * MB;
    private long maxDelayMillis = 0;

    private Builder() {}

    private Builder(DlcConfig c) {
      intervalMillis = c.intervalMillis;
      estimator = c.estimator;
      compressionRatio = c.compressionRatio;
      getCostBytes = c.getCostBytes;
      scanCostBytes = c.scanCostBytes;
      ioLimitBytesPerSecond = c.ioLimitBytesPerSecond;
      ioHighLimitBytesPerSecond = c.ioHighLimitBytesPerSecond;
      ioLowLimitBytesPerSecond = c.ioLowLimitBytesPerSecond;
      softness = c.softness;
      delayPolicy = c.delayPolicy;
      partTriggerFreshFiles = c.partTriggerFreshFiles;
      partTriggerFreshBytes = c.partTriggerFreshBytes;
      fullTriggerL0Files = c.fullTriggerL0Files;
      fullTriggerL0Bytes = c.fullTriggerL0Bytes;
      partRunsBeforeFull = c.partRunsBeforeFull;
      minCompactionBytesPerSecond = c.minCompactionBytesPerSecond;
      rateBufferBytesPerSecond = c.rateBufferBytesPerSecond;
      maxDelayMillis = c.maxDelayMillis;
    }

    public Builder intervalMillis(long v) { intervalMillis = v; return this; }
    public Builder estimator(Estimator v) { estimator = v; return this; }
    public Builder compressionRatio(double v) { compressionRatio = v; return this; }
    public Builder getCostBytes(long v) { getCostBytes = v; return this; }
    public Builder scanCostBytes(long v) { scanCostBytes = v; return this; }
    public Builder ioLimitBytesPerSecond(long v) { ioLimitBytesPerSecond = v; return this; }
    public Builder ioHighLimitBytesPerSecond(long v) { ioHighLimitBytesPerSecond = v; return this; }
    public Builder ioLowLimitBytesPerSecond(long v) { ioLowLimitBytesPerSecond = v; return this; }
    public Builder softness(int v) { softness = v; return this; }
    public Builder delayPolicy(DelayPolicy v) { delayPolicy = v; return this; }
    public Builder partTriggerFreshFiles(int v) { partTriggerFreshFiles = v; return this; }
    public Builder partTriggerFreshBytes(long v) { partTriggerFreshBytes = v; return this; }
    public Builder fullTriggerL0Files(int v) { fullTriggerL0Files = v; return this; }
    public Builder fullTriggerL0Bytes(long v) { fullTriggerL0Bytes = v; return this; }
    public Builder partRunsBeforeFull(int v) { partRunsBeforeFull = v; return this; }
    public Builder minCompactionBytesPerSecond(long v) { minCompactionBytesPerSecond = v; return this; }
    public Builder rateBufferBytesPerSecond(long v) { rateBufferBytesPerSecond = v; return this; }
    public Builder maxDelayMillis(long v) { maxDelayMillis = v; return this; }

    public DlcConfig build() {
      return new DlcConfig(intervalMillis, estimator, compressionRatio, getCostBytes, scanCostBytes,
          ioLimitBytesPerSecond, ioHighLimitBytesPerSecond, ioLowLimitBytesPerSecond, softness,
          delayPolicy, partTriggerFreshFiles, partTriggerFreshBytes, fullTriggerL0Files,
          fullTriggerL0Bytes, partRunsBeforeFull, minCompactionBytesPerSecond,
          rateBufferBytesPerSecond, maxDelayMillis);
    }
  }
}

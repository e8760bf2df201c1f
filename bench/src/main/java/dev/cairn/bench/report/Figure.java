package dev.cairn.bench.report;

import dev.cairn.bench.workload.BlockDbMix;

/**
 * A figure a series reports per engine and, except the hit ratio, as a ratio between engines:
 * its heading, its unit, its decimals, its key in series.json, and which way is better (what a
 * ratio's "higher" or "lower" means for the engine on top).
 */
public enum Figure {
  READS("reads/s", "", 0, true, "reads_per_s"),
  /** The steady window: the mean of the per-second samples after the first third of the run. */
  READS_AFTER("reads/s after 1/3", "", 0, true, "reads_per_s_after_first_third"),
  SCANS("scans/s", "", 0, true, "scans_per_s"),
  SCANS_AFTER("scans/s after 1/3", "", 0, true, "scans_per_s_after_first_third"),
  /** Writes per second, a figure only of workloads that neither read nor scan (a load's rate). */
  WRITES("writes/s", "", 0, true, "writes_per_s"),
  /**
   * A write-only workload's steady window, as {@link #READS_AFTER} is a reading one's: a JVM's
   * first seconds (compiling, growing its heap) weigh on a short load's whole-run rate.
   */
  WRITES_AFTER("writes/s after 1/3", "", 0, true, "writes_per_s_after_first_third"),
  READ_P99("read p99", " us", 1, false, "read_p99_us"),
  /** periodic: the read p99 over the high phases' seconds, the figure DLC is judged on. */
  HIGH_PHASE_READ_P99("high-phase read p99", " us", 1, false, "high_phase_read_p99_us"),
  HIT_RATIO("hit ratio", "", 3, true, "hit_ratio_mean"),
  /** Block-cache misses of user reads per read or scan, as the engine counts them. */
  MISSES_PER_READ("misses/read", "", 3, false, "misses_per_read"),
  /** Reads the capped device served (compactions' included) per user read or scan, as the kernel counts them. */
  DEVICE_READS_PER_READ("device reads/read", "", 3, false, "device_reads_per_read"),
  WRITE_AMPLIFICATION("write amp.", "", 2, false, "write_amplification"),
  /** The largest per-second database size over the live user bytes. */
  PEAK_SPACE("peak space", "", 2, false, "space_amplification_peak"),
  /** Point reads per second of the read phase after the measured one ({@code --read-seconds}). */
  READ_PHASE("reads/s, read phase", "", 0, true, "read_after_ops_per_s"),
  /** Scans per second of the scan phase after the measured one ({@code --scan-seconds}). */
  SCAN_PHASE("scans/s, scan phase", "", 0, true, "scan_after_ops_per_s"),
  /**
   * BlockDB's mixes after the other phases ({@code --ycsb-mix-seconds}): requests per second and,
   * where the mix writes, its write amplification.
   */
  MIX_WRITE_HEAVY("ops/s, 80% writes", "", 0, true, BlockDbMix.WRITE_HEAVY.opsKey()),
  MIX_WRITE_HEAVY_WA("write amp., 80% writes", "", 2, false, BlockDbMix.WRITE_HEAVY.writeAmplificationKey()),
  MIX_BALANCED("ops/s, 50% writes", "", 0, true, BlockDbMix.BALANCED.opsKey()),
  MIX_BALANCED_WA("write amp., 50% writes", "", 2, false, BlockDbMix.BALANCED.writeAmplificationKey()),
  MIX_READ_HEAVY("ops/s, 20% writes", "", 0, true, BlockDbMix.READ_HEAVY.opsKey()),
  MIX_READ_HEAVY_WA("write amp., 20% writes", "", 2, false, BlockDbMix.READ_HEAVY.writeAmplificationKey()),
  MIX_READ_ONLY("ops/s, 0% writes", "", 0, true, BlockDbMix.READ_ONLY.opsKey());

  private final String heading;
  private final String unit;
  private final int decimals;
  private final boolean higherIsBetter;
  private final String key;

  Figure(String heading, String unit, int decimals, boolean higherIsBetter, String key) {
    this.heading = heading;
    this.unit = unit;
    this.decimals = decimals;
    this.higherIsBetter = higherIsBetter;
    this.key = key;
  }

  public String heading() {
    return heading;
  }

  public String unit() {
    return unit;
  }

  public int decimals() {
    return decimals;
  }

  public boolean higherIsBetter() {
    return higherIsBetter;
  }

  /** The figure's name in series.json. */
  public String key() {
    return key;
  }

  /**
   * Whether this figure is a workload's own only when it neither reads nor scans: beside reads,
   * writes/s is the paced writer's rate, the same for every engine.
   */
  public boolean onlyWithoutReads() {
    return this == WRITES || this == WRITES_AFTER;
  }

  /** Whether this is one of BlockDB's mixes' figures, whose summary.json key is its own key. */
  public boolean ofMix() {
    return key.startsWith("mix_");
  }

  /** Whether a ratio of this figure between engines says something (a ratio of hit ratios says little). */
  public boolean inRatios() {
    return this != HIT_RATIO;
  }
}

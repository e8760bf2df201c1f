package dev.cairn.cassandra;

import dev.cairn.cassandra.hot.HotSparingConfig;
import dev.cairn.compaction.dlc.DlcConfig;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The strategy's own CQL options, beside LCS's ({@code sstable_size_in_mb}, {@code fanout_size},
 * {@code single_sstable_uplevel}) and Cassandra's common ones ({@code tombstone_threshold}, ...),
 * which their owners validate. The README's options table lists the same names, defaults and
 * ranges; {@link #parse} refuses a value outside its range with a message naming the option and
 * the range, and {@link #withoutOwnOptions} leaves every other key for Cassandra, which refuses
 * the ones nobody understands.
 *
 * @param dryRun plan and log Cairn's decisions, but run LCS's
 * @param delayL0 DLC: delay L0 compactions under high load
 * @param spareHot cold-first choice of compactions below L0 under high load
 * @param l0CompactionTrigger L0 SSTables at which an L0 compaction is due
 * @param maxL0SSTables the hard bound on L0 under a delay: at this many, all of L0 compacts
 * @param maxDelaySeconds the hard bound on how long an L0 compaction may be delayed
 * @param burstyPartSSTables fresh L0 SSTables that a bursty "resume part" merges into one
 * @param loadIntervalMillis how often the load model and the read rates are sampled
 * @param ioHighLimitMb client read bandwidth (MB/s) above which the load is high
 * @param ioLowLimitMb client read bandwidth (MB/s) below which an interval counts towards low
 * @param softness low intervals in a row before a high load is declared low
 * @param hotFactor an SSTable is hot at this many times the table's average reads per byte
 * @param maxHotLevelScore a level this far over its limit compacts even if every choice is hot
 * @param maxHotPostponeSeconds how long a level may wait for its hot SSTables to cool
 * @param warmOutput read a compaction's output chunks that hold recently read partitions into
 *     the chunk cache as the output goes live (and open no output early, docs/adapters/cassandra.md)
 * @param warmBudgetMb the most a compaction's warming reads, MiB
 */
public record CairnOptions(
    boolean dryRun,
    boolean delayL0,
    boolean spareHot,
    int l0CompactionTrigger,
    int maxL0SSTables,
    int maxDelaySeconds,
    int burstyPartSSTables,
    int loadIntervalMillis,
    int ioHighLimitMb,
    int ioLowLimitMb,
    int softness,
    double hotFactor,
    double maxHotLevelScore,
    int maxHotPostponeSeconds,
    boolean warmOutput,
    int warmBudgetMb) {

  public static final String DRY_RUN = "dry_run";
  public static final String DELAY_L0 = "delay_l0";
  public static final String SPARE_HOT = "spare_hot";
  public static final String L0_COMPACTION_TRIGGER = "l0_compaction_trigger";
  public static final String MAX_L0_SSTABLES = "max_l0_sstables";
  public static final String MAX_DELAY_SECONDS = "max_delay_seconds";
  public static final String BURSTY_PART_SSTABLES = "bursty_part_sstables";
  public static final String LOAD_INTERVAL_MS = "load_interval_ms";
  public static final String IO_HIGH_LIMIT_MB = "io_high_limit_mb";
  public static final String IO_LOW_LIMIT_MB = "io_low_limit_mb";
  public static final String SOFTNESS = "softness";
  public static final String HOT_FACTOR = "hot_factor";
  public static final String MAX_HOT_LEVEL_SCORE = "max_hot_level_score";
  public static final String MAX_HOT_POSTPONE_SECONDS = "max_hot_postpone_seconds";
  public static final String WARM_OUTPUT = "warm_output";
  public static final String WARM_BUDGET_MB = "warm_budget_mb";

  /** Option name to default, in the README's order. */
  public static final Map<String, String> DEFAULTS = defaults();

  private static Map<String, String> defaults() {
    Map<String, String> d = new LinkedHashMap<>();
    d.put(DRY_RUN, "false");
    d.put(DELAY_L0, "true");
    d.put(SPARE_HOT, "true");
    d.put(L0_COMPACTION_TRIGGER, "4");
    d.put(MAX_L0_SSTABLES, "32");
    d.put(MAX_DELAY_SECONDS, "60");
    d.put(BURSTY_PART_SSTABLES, "4");
    d.put(LOAD_INTERVAL_MS, "1000");
    d.put(IO_HIGH_LIMIT_MB, "48");
    d.put(IO_LOW_LIMIT_MB, "28");
    d.put(SOFTNESS, "3");
    d.put(HOT_FACTOR, "2.0");
    d.put(MAX_HOT_LEVEL_SCORE, "2.0");
    d.put(MAX_HOT_POSTPONE_SECONDS, "60");
    d.put(WARM_OUTPUT, "false");
    d.put(WARM_BUDGET_MB, "64");
    return java.util.Collections.unmodifiableMap(d);
  }

  /** The options with every default. */
  public static CairnOptions defaultOptions() {
    return parse(Map.of());
  }

  /**
   * Reads the strategy's options from a table's compaction map; other keys are ignored here.
   *
   * @throws IllegalArgumentException naming the option and its allowed values
   */
  public static CairnOptions parse(Map<String, String> options) {
    Map<String, String> o = new HashMap<>(DEFAULTS);
    for (String key : DEFAULTS.keySet()) {
      if (options.containsKey(key)) {
        o.put(key, options.get(key));
      }
    }
    int trigger = integer(o, L0_COMPACTION_TRIGGER, 2, 32);
    int maxL0 = integer(o, MAX_L0_SSTABLES, trigger, 1000);
    int high = integer(o, IO_HIGH_LIMIT_MB, 1, 1_000_000);
    return new CairnOptions(
        bool(o, DRY_RUN),
        bool(o, DELAY_L0),
        bool(o, SPARE_HOT),
        trigger,
        maxL0,
        integer(o, MAX_DELAY_SECONDS, 1, 86_400),
        integer(o, BURSTY_PART_SSTABLES, 2, 1000),
        integer(o, LOAD_INTERVAL_MS, 100, 3_600_000),
        high,
        integer(o, IO_LOW_LIMIT_MB, 0, high),
        integer(o, SOFTNESS, 1, 1000),
        decimal(o, HOT_FACTOR, 1.0, 1000.0, false),
        decimal(o, MAX_HOT_LEVEL_SCORE, 1.0, 1000.0, true),
        integer(o, MAX_HOT_POSTPONE_SECONDS, 0, 86_400),
        bool(o, WARM_OUTPUT),
        integer(o, WARM_BUDGET_MB, 1, 65_536));
  }

  /** {@code options} without the strategy's own keys: what LCS and Cassandra validate. */
  public static Map<String, String> withoutOwnOptions(Map<String, String> options) {
    Map<String, String> rest = new HashMap<>(options);
    rest.keySet().removeAll(DEFAULTS.keySet());
    return rest;
  }

  /** DLC's settings: the load model's limits and the delay's bounds. */
  public DlcConfig dlcConfig() {
    long mb = 1_000_000L;
    return DlcConfig.builder()
        .intervalMillis(loadIntervalMillis)
        .ioHighLimitBytesPerSecond(ioHighLimitMb * mb)
        .ioLowLimitBytesPerSecond(ioLowLimitMb * mb)
        // Eq. 2's io_limit only bounds the reported compaction rate here: the strategy does not
        // set Cassandra's node-wide compaction throughput, which every table shares.
        .ioLimitBytesPerSecond(Math.max(800 * mb, ioHighLimitMb * mb))
        .softness(softness)
        .partTriggerFreshFiles(burstyPartSSTables)
        .fullTriggerL0Files(maxL0SSTables)
        .maxDelayMillis(maxDelaySeconds * 1000L)
        .build();
  }

  public HotSparingConfig hotSparingConfig() {
    return new HotSparingConfig(hotFactor, maxHotLevelScore, maxHotPostponeSeconds * 1000L);
  }

  private static boolean bool(Map<String, String> o, String key) {
    String v = o.get(key).trim().toLowerCase(Locale.ROOT);
    if (v.equals("true") || v.equals("false")) {
      return Boolean.parseBoolean(v);
    }
    throw new IllegalArgumentException(key + " must be true or false, but was '" + o.get(key) + "'");
  }

  private static int integer(Map<String, String> o, String key, int min, int max) {
    int v;
    try {
      v = Integer.parseInt(o.get(key).trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          key + " must be an integer in [" + min + ", " + max + "], but was '" + o.get(key) + "'");
    }
    if (v < min || v > max) {
      throw new IllegalArgumentException(
          key + " must be in [" + min + ", " + max + "], but was " + v + rangeNote(key, min));
    }
    return v;
  }

  private static String rangeNote(String key, int min) {
    if (key.equals(MAX_L0_SSTABLES)) {
      return " (it may not be below " + L0_COMPACTION_TRIGGER + ", " + min + ")";
    }
    if (key.equals(IO_LOW_LIMIT_MB)) {
      return " (it may not exceed " + IO_HIGH_LIMIT_MB + ")";
    }
    return "";
  }

  private static double decimal(
      Map<String, String> o, String key, double min, double max, boolean minInclusive) {
    String range = (minInclusive ? "[" : "(") + min + ", " + max + "]";
    double v;
    try {
      v = Double.parseDouble(o.get(key).trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a number in " + range + ", but was '" + o.get(key) + "'");
    }
    boolean aboveMin = minInclusive ? v >= min : v > min;
    if (!aboveMin || !(v <= max)) {
      throw new IllegalArgumentException(key + " must be in " + range + ", but was " + o.get(key).trim());
    }
    return v;
  }
}

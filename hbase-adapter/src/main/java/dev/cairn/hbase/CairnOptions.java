package dev.cairn.hbase;

import static dev.cairn.hbase.OptionValues.bool;
import static dev.cairn.hbase.OptionValues.integer;
import static dev.cairn.hbase.OptionValues.range;

import dev.cairn.compaction.dlc.DlcConfig;
import dev.cairn.hbase.tiered.TieredDlcConfig;
import java.util.List;
import java.util.function.Function;

/**
 * The policy's settings, read from a store's configuration (site, then table, then family
 * {@code CONFIGURATION}; the last wins), every key under {@value #PREFIX}. A value out of range
 * is refused with a message that names the key and the range; the policy then logs it and
 * compacts as HBase would ({@link CairnCompactionPolicy}), so a bad setting never keeps a region
 * from opening.
 *
 * @param dryRun decide and count, but run HBase's own selection
 * @param delay delay compactions under high load (DLC); off: HBase's selection always runs
 * @param spareCached at a bound, choose the window that evicts the fewest cached bytes
 * @param boundMarginFiles end a delay this many files below {@code hbase.hstore.blockingStoreFiles}
 * @param maxDelaySeconds run a compaction held back this long (0: the file bound alone)
 * @param partFiles merge this many fresh flushes under high load (bursty "resume part")
 * @param ioHighLimitMb client device reads (MB/s, block-cache misses) above which the load is high
 * @param ioLowLimitMb ... below which an interval counts towards low
 * @param softness consecutive low intervals before a high load is declared low
 * @param loadIntervalMillis the load model's interval
 */
public record CairnOptions(
    boolean dryRun, boolean delay, boolean spareCached, int boundMarginFiles, int maxDelaySeconds,
    int partFiles, int ioHighLimitMb, int ioLowLimitMb, int softness, int loadIntervalMillis) {

  public static final String PREFIX = "cairn.compaction.";
  public static final String DRY_RUN = PREFIX + "dry.run";
  public static final String DELAY = PREFIX + "delay";
  public static final String SPARE_CACHED = PREFIX + "spare.cached";
  public static final String BOUND_MARGIN_FILES = PREFIX + "bound.margin.files";
  public static final String MAX_DELAY_SECONDS = PREFIX + "max.delay.seconds";
  public static final String PART_FILES = PREFIX + "part.files";
  public static final String IO_HIGH_LIMIT_MB = PREFIX + "io.high.limit.mb";
  public static final String IO_LOW_LIMIT_MB = PREFIX + "io.low.limit.mb";
  public static final String SOFTNESS = PREFIX + "softness";
  public static final String LOAD_INTERVAL_MS = PREFIX + "load.interval.ms";

  /** Every key, for the docs and for a check that nothing else under the prefix is set. */
  public static final List<String> KEYS = List.of(DRY_RUN, DELAY, SPARE_CACHED, BOUND_MARGIN_FILES,
      MAX_DELAY_SECONDS, PART_FILES, IO_HIGH_LIMIT_MB, IO_LOW_LIMIT_MB, SOFTNESS, LOAD_INTERVAL_MS);

  public CairnOptions {
    range(BOUND_MARGIN_FILES, boundMarginFiles, 1, 1000);
    range(MAX_DELAY_SECONDS, maxDelaySeconds, 0, 86_400);
    range(PART_FILES, partFiles, 2, 1000);
    range(IO_HIGH_LIMIT_MB, ioHighLimitMb, 1, 1_000_000);
    range(IO_LOW_LIMIT_MB, ioLowLimitMb, 0, ioHighLimitMb - 1);
    range(SOFTNESS, softness, 1, 1000);
    range(LOAD_INTERVAL_MS, loadIntervalMillis, 10, 3_600_000);
  }

  /** The defaults: DLC's limits for this machine's device (docs/dlc.md), 60 s time bound. */
  public static CairnOptions defaults() {
    DlcConfig dlc = DlcConfig.defaults();
    return new CairnOptions(false, true, true, 4, 60, dlc.partTriggerFreshFiles(),
        (int) (dlc.ioHighLimitBytesPerSecond() / 1_000_000), (int) (dlc.ioLowLimitBytesPerSecond() / 1_000_000),
        dlc.softness(), (int) dlc.intervalMillis());
  }

  /**
   * Reads the options from {@code get} (a configuration's {@code get(key)}; null when unset).
   *
   * @throws IllegalArgumentException naming the key, for an unknown key under the prefix in
   *     {@code setKeys}, a value that does not parse, or one out of range
   */
  public static CairnOptions read(Function<String, String> get, Iterable<String> setKeys) {
    OptionValues.refuseUnknown(PREFIX, KEYS, setKeys);
    CairnOptions d = defaults();
    return new CairnOptions(
        bool(get, DRY_RUN, d.dryRun()), bool(get, DELAY, d.delay()), bool(get, SPARE_CACHED, d.spareCached()),
        integer(get, BOUND_MARGIN_FILES, d.boundMarginFiles()), integer(get, MAX_DELAY_SECONDS, d.maxDelaySeconds()),
        integer(get, PART_FILES, d.partFiles()), integer(get, IO_HIGH_LIMIT_MB, d.ioHighLimitMb()),
        integer(get, IO_LOW_LIMIT_MB, d.ioLowLimitMb()), integer(get, SOFTNESS, d.softness()),
        integer(get, LOAD_INTERVAL_MS, d.loadIntervalMillis()));
  }

  /** DLC's load-model settings with these limits, interval and softness. */
  public DlcConfig dlcConfig() {
    long mb = 1_000_000L;
    return DlcConfig.defaults().toBuilder()
        .intervalMillis(loadIntervalMillis)
        .ioHighLimitBytesPerSecond(ioHighLimitMb * mb)
        .ioLowLimitBytesPerSecond(ioLowLimitMb * mb)
        // Eq. 2's io_limit only bounds the reported compaction rate here, and must not lie below
        // the high limit a fast disk's operator sets (as on Cassandra).
        .ioLimitBytesPerSecond(Math.max(800 * mb, ioHighLimitMb * mb))
        .softness(softness)
        .build();
  }

  /**
   * The tiered policy's settings around a store with these merge limits and flush size.
   *
   * @throws IllegalArgumentException naming HBase's keys, when HBase's merge limits lie outside
   *     what the policy takes (HBase itself accepts any: up to 1000 files a compaction, a ratio
   *     finite and above 0)
   */
  public TieredDlcConfig tieredConfig(int minFiles, int maxFiles, double ratio, long flushBytes) {
    TieredDlcConfig d = TieredDlcConfig.defaults(Math.max(1, flushBytes));
    try {
      return new TieredDlcConfig(boundMarginFiles, maxDelaySeconds * 1000L, partFiles, d.freshMaxBytes(),
          minFiles, Math.max(minFiles, maxFiles), ratio);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("hbase.hstore.compaction.min " + minFiles + ", .max " + maxFiles
          + ", .ratio " + ratio + " are outside what Cairn's policy takes (" + e.getMessage() + ")", e);
    }
  }
}

package dev.cairn.hbase;

import static dev.cairn.hbase.OptionValues.bool;
import static dev.cairn.hbase.OptionValues.decimal;
import static dev.cairn.hbase.OptionValues.integer;
import static dev.cairn.hbase.OptionValues.range;

import dev.cairn.hbase.buffer.GenerationTrim;
import java.util.List;
import java.util.function.Function;

/**
 * The compaction buffer's settings ({@link CairnBufferStoreEngine}), read from a store's
 * configuration (site, then table, then family {@code CONFIGURATION}; the last wins), every key
 * under {@value #PREFIX}. A value out of range is refused with a message that names the key and
 * the range; the engine then logs it and keeps no buffer, compacting and reading as HBase's
 * default engine does, so a bad setting never keeps a region from opening.
 *
 * @param enabled keep compactions' inputs as a buffer (off: the engine is HBase's default one)
 * @param trimIntervalMillis how often the trim judges the buffer (LSbM: 30 s)
 * @param minServedShare retire a generation when fewer of its reads than this share can use its
 *     buffered inputs ({@link GenerationTrim})
 * @param maxExtraFraction the most the buffered inputs may hold, as a fraction of the store's
 *     live bytes; a compaction whose inputs would exceed it is not buffered
 * @param maxDilution retire a generation whose buffered inputs hold more than this multiple of
 *     the block cache beyond its output ({@link GenerationTrim}); 0.5 by measurement: against
 *     1.0 it raised the hit ratio in both shapes of docs/results/issue16-hbase ("The default
 *     max.dilution")
 * @param maxChangedRows the most changed rows a compaction may have and still be buffered (each
 *     costs its bytes in memory while the generation lives)
 * @param maxHeapMb the most heap, MiB, the buffers of all the region server's stores may hold in
 *     changed rows and row filters; a compaction that would take them past it is not buffered
 *     (a region server setting, as the block cache it trims against)
 * @param warmHandOver before the trim retires a generation its reads still use, load into the
 *     block cache the output's blocks under the rows recently read through it ({@link
 *     OutputWarmer}), so the reads that move to the output find it warm
 */
public record BufferOptions(boolean enabled, int trimIntervalMillis, double minServedShare, double maxExtraFraction,
    double maxDilution, int maxChangedRows, int maxHeapMb, boolean warmHandOver) {

  public static final String PREFIX = "cairn.buffer.";
  public static final String ENABLED = PREFIX + "enabled";
  public static final String TRIM_INTERVAL_MS = PREFIX + "trim.interval.ms";
  public static final String MIN_SERVED_SHARE = PREFIX + "min.served.share";
  public static final String MAX_EXTRA_FRACTION = PREFIX + "max.extra.fraction";
  public static final String MAX_DILUTION = PREFIX + "max.dilution";
  public static final String MAX_CHANGED_ROWS = PREFIX + "max.changed.rows";
  public static final String MAX_HEAP_MB = PREFIX + "max.heap.mb";
  public static final String WARM_HAND_OVER = PREFIX + "warm.handover";

  /** Every key, for the docs and for a check that nothing else under the prefix is set. */
  public static final List<String> KEYS =
      List.of(ENABLED, TRIM_INTERVAL_MS, MIN_SERVED_SHARE, MAX_EXTRA_FRACTION, MAX_DILUTION, MAX_CHANGED_ROWS,
          MAX_HEAP_MB, WARM_HAND_OVER);

  public BufferOptions {
    range(TRIM_INTERVAL_MS, (long) trimIntervalMillis, 100, 3_600_000);
    range(MIN_SERVED_SHARE, minServedShare, 0.0, 1.0);
    range(MAX_EXTRA_FRACTION, maxExtraFraction, 0.0, 100.0);
    range(MAX_DILUTION, maxDilution, 0.0, 1000.0);
    range(MAX_CHANGED_ROWS, (long) maxChangedRows, 0, 100_000_000);
    range(MAX_HEAP_MB, (long) maxHeapMb, 0, 1_000_000);
  }

  /**
   * 10 s trim passes; a generation kept while its leaves serve half its reads and hold at most
   * half a block cache beyond its output; all leaves at most 1.5x the live bytes; at most 256 MiB
   * of the server's heap; warm hand-overs.
   */
  public static BufferOptions defaults() {
    return new BufferOptions(true, 10_000, 0.5, 1.5, 0.5, 1_000_000, 256, true);
  }

  /** {@link #maxHeapMb} in bytes. */
  public long maxHeapBytes() {
    return maxHeapMb * (1L << 20);
  }

  /** These options with the buffer off (a bad setting's fallback). */
  public BufferOptions disabled() {
    return new BufferOptions(false, trimIntervalMillis, minServedShare, maxExtraFraction, maxDilution, maxChangedRows,
        maxHeapMb, warmHandOver);
  }

  /** The trim's settings. */
  public GenerationTrim.Config trimConfig() {
    return new GenerationTrim.Config(trimIntervalMillis, minServedShare, maxExtraFraction, maxDilution);
  }

  /**
   * Reads the options from {@code get} (a configuration's {@code get(key)}; null when unset).
   *
   * @throws IllegalArgumentException naming the key, for an unknown key under the prefix in
   *     {@code setKeys}, a value that does not parse, or one out of range
   */
  public static BufferOptions read(Function<String, String> get, Iterable<String> setKeys) {
    OptionValues.refuseUnknown(PREFIX, KEYS, setKeys);
    BufferOptions d = defaults();
    return new BufferOptions(bool(get, ENABLED, d.enabled()), integer(get, TRIM_INTERVAL_MS, d.trimIntervalMillis()),
        decimal(get, MIN_SERVED_SHARE, d.minServedShare()), decimal(get, MAX_EXTRA_FRACTION, d.maxExtraFraction()),
        decimal(get, MAX_DILUTION, d.maxDilution()), integer(get, MAX_CHANGED_ROWS, d.maxChangedRows()),
        integer(get, MAX_HEAP_MB, d.maxHeapMb()), bool(get, WARM_HAND_OVER, d.warmHandOver()));
  }
}

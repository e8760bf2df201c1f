package dev.cairn.bench;

import dev.cairn.bench.engine.EngineSettings;
import dev.cairn.config.Compression;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Everything a run is configured with; written whole into summary.json's {@code config}. The
 * defaults are LSbM-tree section 6.1 at 1/100 of its sizes with the write rate kept:
 * 200 MiB of unique data as 204,800 records of 1 KiB, a 15% (30 MiB) hot range, a block cache of
 * 30% of the data (60 MiB, which holds the hot range), 1 MiB memtable, L1 10 MiB, ratio 10,
 * 1,000 updates/s. Time runs 100x faster too: 100 s here stand for the paper's 10,000 s.
 *
 * @param records records loaded before the measured phase (and inserted by {@code load})
 * @param seconds length of the measured phase
 * @param cacheBytes block cache bytes; defaults to 30% of the data set, at least 1 MiB
 * @param memtableBytes memtable bytes
 * @param valueBytes bytes per value
 * @param writeRate updates per second of the paced writer
 * @param readers reader (or client) threads
 * @param directIo read tables with O_DIRECT where the engine can
 * @param seed seed of every generator
 * @param baseLevelBytes L1 bytes
 * @param levelSizeRatio ratio between adjacent levels
 * @param targetFileBytes table size of compaction output
 * @param hotFraction fraction of the keys in the hot range
 * @param hotProbability fraction of reads that fall in the hot range
 * @param periodScale periodic: the DLC paper's 500 s high / 100 s low phases times this
 * @param highOps periodic: offered operations per second in a high phase
 * @param lowOps periodic: offered operations per second in a low phase
 * @param dataDir where databases are created (one subdirectory per run, deleted afterwards)
 * @param keepData keep the databases after the run
 * @param seekDelayMillis simulated seek time per non-sequential table read (0 = off)
 * @param mixedSeconds length of the mixed read/write phase after the measured phase (0 = none)
 * @param scanSeconds length of the scan phase after the measured (mixed and read) phases (0 = none)
 * @param nodePageCacheBytes Cassandra and HBase engines: page cache the node's process may hold beyond its
 *     JVM's memory (its memory cgroup's budget)
 * @param engineDefaults every engine keeps its own level sizes, table sizes and level sizing
 *     ({@code --engine-defaults}); only the budgets are shared (cache, memtable, block size, Bloom
 *     bits, no compression), and {@code baseLevelBytes}, {@code levelSizeRatio} and {@code
 *     targetFileBytes} are not applied
 * @param backgroundThreads Cairn's {@code backgroundThreads} and RocksDB's {@code
 *     max_background_jobs} ({@code --background-threads}); 0 keeps each engine's default
 * @param deviceReadIops reads per second the data's device serves each run's process ({@code
 *     --device-read-iops}, a block-I/O control group: {@link dev.cairn.bench.device.ReadIopsCap});
 *     0 = uncapped. A capped run reads its tables directly where the engine can ({@link
 *     #directIo} is then true) and drops the page cache before each measured phase
 * @param cacheTrace Cairn engines record a block cache trace of each run beside its statistics
 *     ({@code --cache-trace}; the last round's is kept)
 * @param compressionRatio how much of each value a compressor finds new ({@code
 *     --compression-ratio}, db_bench's {@code --compression_ratio}; {@link
 *     dev.cairn.bench.workload.Values}): 1 for random bytes, what every run before the knob used
 * @param compression the block codec every engine that has it runs with ({@code --compression}),
 *     at every level; an engine without it reports it unhonoured
 * @param keyBytes bytes per key ({@code --key-bytes}; {@link dev.cairn.bench.workload.Keys}): 16
 *     unless a run asks for wider keys
 * @param readSeconds length of the point-read phase after the measured (and mixed) phase (0 = none)
 * @param settle after the measured phase's workers stop, the run goes on until the engine owes no
 *     compaction ({@code --settle}), sampling every second, so that its write amplification is
 *     that of a settled tree and its seconds run to it (BlockDB's load figures)
 * @param ycsbMixSeconds length of each of BlockDB's mixes of writes and reads after the other
 *     phases ({@code --ycsb-mix-seconds}; {@link dev.cairn.bench.workload.BlockDbMix}), 0 = none
 */
public record RunConfig(
    long records,
    double seconds,
    long cacheBytes,
    long memtableBytes,
    int valueBytes,
    double writeRate,
    int readers,
    boolean directIo,
    long seed,
    long baseLevelBytes,
    int levelSizeRatio,
    long targetFileBytes,
    double hotFraction,
    double hotProbability,
    double periodScale,
    double highOps,
    double lowOps,
    Path dataDir,
    boolean keepData,
    double seekDelayMillis,
    double mixedSeconds,
    double scanSeconds,
    long nodePageCacheBytes,
    boolean engineDefaults,
    int backgroundThreads,
    int deviceReadIops,
    boolean cacheTrace,
    double compressionRatio,
    Compression compression,
    int keyBytes,
    double readSeconds,
    boolean settle,
    double ycsbMixSeconds) {

  /**
   * Configuration keys added after runs were recorded, with the value every run recorded before
   * them had: a record without the key compares as if it held that value.
   */
  public static final Map<String, Object> KEYS_ADDED_LATER = Map.of("compression_ratio", 1.0, "settle", false,
      "read_seconds", 0.0, "ycsb_mix_seconds", 0.0);

  public static final long MIB = 1L << 20;
  public static final long DEFAULT_RECORDS = 204_800;
  public static final double DEFAULT_SECONDS = 100;
  /** The paper's cache-to-data ratio: 60 MB of cache for 200 MB of data. */
  public static final double CACHE_FRACTION_OF_DATA = 0.3;

  public RunConfig {
    if (deviceReadIops < 0) {
      throw new IllegalArgumentException("deviceReadIops must not be negative, got " + deviceReadIops);
    }
    if (!(compressionRatio > 0 && compressionRatio <= 1)) {
      throw new IllegalArgumentException("compressionRatio must lie in (0, 1], got " + compressionRatio);
    }
    if (keyBytes < dev.cairn.bench.workload.Keys.KEY_BYTES || keyBytes > dev.cairn.bench.workload.Keys.MAX_KEY_BYTES) {
      throw new IllegalArgumentException("keyBytes must lie in " + dev.cairn.bench.workload.Keys.KEY_BYTES + ".."
          + dev.cairn.bench.workload.Keys.MAX_KEY_BYTES + ", got " + keyBytes);
    }
    if (deviceReadIops > 0 && !directIo) {
      throw new IllegalArgumentException("a run on the capped device reads its tables directly (directIo)");
    }
  }

  /** Whether each run's process sits on the capped slow device ({@code --device-read-iops}). */
  public boolean deviceCapped() {
    return deviceReadIops > 0;
  }

  /** The settings every engine is asked to honour. */
  public EngineSettings engineSettings() {
    return new EngineSettings(cacheBytes, memtableBytes, 4096, 10, baseLevelBytes, levelSizeRatio,
        targetFileBytes, directIo, highOps, lowOps, seekDelayMillis, records, valueBytes, nodePageCacheBytes,
        engineDefaults, backgroundThreads, cacheTrace, compression);
  }

  /** Bytes of one record as the user wrote it: key plus value. */
  public long recordBytes() {
    return keyBytes + valueBytes;
  }

  /** This run's key for record {@code id}. */
  public byte[] key(long id) {
    return dev.cairn.bench.workload.Keys.encode(id, keyBytes);
  }

  /** The default cache for a data set: 30% of it, at least 1 MiB. */
  public static long defaultCacheBytes(long records, int keyBytes, int valueBytes) {
    long data = records * (keyBytes + valueBytes);
    return Math.max(MIB, Math.round(data * CACHE_FRACTION_OF_DATA));
  }

  /** LSbM-tree section 6.1 loads 20 GiB of unique data; this run's data set is 1/N of that. */
  public double lsbmScaleDenominator() {
    return (20.0 * (1L << 30)) / (records * recordBytes());
  }

  /** Field by field, in declaration order, for summary.json and report.md. */
  public Map<String, Object> asMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("records", records);
    m.put("seconds", seconds);
    m.put("cache_bytes", cacheBytes);
    m.put("memtable_bytes", memtableBytes);
    m.put("value_bytes", valueBytes);
    m.put("key_bytes", keyBytes);
    m.put("block_bytes", 4096);
    m.put("bloom_bits_per_key", 10);
    m.put("compression", compression.toString());
    m.put("compression_ratio", compressionRatio);
    m.put("write_rate", writeRate);
    m.put("readers", readers);
    m.put("direct_io", directIo);
    m.put("seed", seed);
    m.put("base_level_bytes", baseLevelBytes);
    m.put("level_size_ratio", levelSizeRatio);
    m.put("target_file_bytes", targetFileBytes);
    m.put("hot_fraction", hotFraction);
    m.put("hot_probability", hotProbability);
    m.put("period_scale", periodScale);
    m.put("high_ops", highOps);
    m.put("low_ops", lowOps);
    m.put("seek_delay_ms", seekDelayMillis);
    m.put("mixed_seconds", mixedSeconds);
    m.put("scan_seconds", scanSeconds);
    m.put("read_seconds", readSeconds);
    m.put("node_page_cache_bytes", nodePageCacheBytes);
    m.put("engine_defaults", engineDefaults);
    m.put("background_threads", backgroundThreads);
    m.put("device_read_iops", deviceReadIops);
    m.put("cache_trace", cacheTrace);
    m.put("settle", settle);
    m.put("ycsb_mix_seconds", ycsbMixSeconds);
    m.put("lsbm_6_1_scale", "1/" + Math.round(lsbmScaleDenominator()));
    return m;
  }
}

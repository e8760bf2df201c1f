package dev.cairn.bench.engine;

import dev.cairn.config.Compression;

/**
 * The settings every engine is asked to honour, so that engines are compared with the same
 * memory budget and tree shape (docs/benchmarks.md).
 *
 * @param blockCacheBytes block cache capacity
 * @param memtableBytes write buffer (memtable) size, which is also the size of an L0 table
 * @param blockBytes data block size (4 KiB)
 * @param bloomBitsPerKey Bloom filter bits per key (10)
 * @param baseLevelBytes maximum bytes of level 1
 * @param levelSizeRatio size ratio between adjacent levels
 * @param targetFileBytes size at which compaction output is cut into a new table
 * @param directReads read tables with O_DIRECT, so that a cache miss costs device I/O
 * @param offeredHighOps periodic: the offered ops/s of a high phase (0 for other workloads);
 *     a load-aware scheduler (Cairn's {@code +dlc}) sets its load limits from it
 * @param offeredLowOps periodic: the offered ops/s of a low phase (0 for other workloads)
 * @param seekDelayMillis simulated seek time charged to every non-sequential table read (0 = off;
 *     {@code dev.cairn.fs.SeekDelayFileSystem}); engines that read through their own file layer
 *     report it as unhonoured
 * @param records records loaded before the measured phase (ids {@code 0..records-1}; inserts
 *     append after them): engines that lay out their key space ahead size it from this (the
 *     Cassandra engines' partition buckets)
 * @param valueBytes bytes per value (keys are 16 bytes)
 * @param nodePageCacheBytes engines whose server runs in a process of its own (the Cassandra
 *     and HBase engines): the page cache that process may hold beyond its own memory ({@code
 *     --node-page-cache-mb}), so that a block-cache miss costs device I/O
 * @param backgroundThreads threads for flushes and compactions (Cairn's {@code
 *     backgroundThreads}, RocksDB's {@code max_background_jobs}); 0 keeps the engine's default,
 *     and engines that cannot set it report a positive value as unhonoured
 * @param cacheTrace Cairn engines: record a block cache trace of each run ({@code --cache-trace})
 *     beside its statistics, for {@code cache-replay}; other engines ignore it
 * @param compression the block codec at every level, for every engine that has it ({@code
 *     --compression}); an engine without it reports it unhonoured ({@link #compressionUnhonoured})
 */
public record EngineSettings(
    long blockCacheBytes,
    long memtableBytes,
    int blockBytes,
    int bloomBitsPerKey,
    long baseLevelBytes,
    int levelSizeRatio,
    long targetFileBytes,
    boolean directReads,
    double offeredHighOps,
    double offeredLowOps,
    double seekDelayMillis,
    long records,
    int valueBytes,
    long nodePageCacheBytes,
    boolean engineDefaults,
    int backgroundThreads,
    boolean cacheTrace,
    Compression compression) {

  /** Settings without compression: what every run before {@code --compression} had. */
  public EngineSettings(long blockCacheBytes, long memtableBytes, int blockBytes, int bloomBitsPerKey,
      long baseLevelBytes, int levelSizeRatio, long targetFileBytes, boolean directReads, double offeredHighOps,
      double offeredLowOps, double seekDelayMillis, long records, int valueBytes, long nodePageCacheBytes,
      boolean engineDefaults, int backgroundThreads, boolean cacheTrace) {
    this(blockCacheBytes, memtableBytes, blockBytes, bloomBitsPerKey, baseLevelBytes, levelSizeRatio,
        targetFileBytes, directReads, offeredHighOps, offeredLowOps, seekDelayMillis, records, valueBytes,
        nodePageCacheBytes, engineDefaults, backgroundThreads, cacheTrace, Compression.none());
  }

  /** LevelDB's hard-wired tree shape, which the LevelDB engines cannot change. */
  public static final long LEVELDB_BASE_LEVEL_BYTES = 10L << 20;
  public static final int LEVELDB_LEVEL_SIZE_RATIO = 10;
  public static final long LEVELDB_TARGET_FILE_BYTES = 2L << 20;

  /** These settings without offered rates: what the runner gives a workload other than periodic. */
  public EngineSettings withoutOfferedRates() {
    return new EngineSettings(blockCacheBytes, memtableBytes, blockBytes, bloomBitsPerKey, baseLevelBytes,
        levelSizeRatio, targetFileBytes, directReads, 0, 0, seekDelayMillis, records, valueBytes,
        nodePageCacheBytes, engineDefaults, backgroundThreads, cacheTrace, compression);
  }

  /** The unhonoured-settings entry of an engine that cannot run {@link #compression}. */
  public java.util.Optional<String> compressionUnhonoured(String library) {
    return compression.isNone()
        ? java.util.Optional.empty()
        : java.util.Optional.of("compression=" + compression + ": " + library + " runs without it");
  }

  /** The unhonoured-settings entry of an engine whose background thread count cannot be set. */
  public java.util.Optional<String> backgroundThreadsUnhonoured(String library) {
    return backgroundThreads > 0
        ? java.util.Optional.of("background-threads=" + backgroundThreads + ": " + library
            + " keeps its own background threads")
        : java.util.Optional.empty();
  }

  /** The unhonoured-settings entry of an engine that cannot run on the simulated slow device. */
  public java.util.Optional<String> seekDelayUnhonoured(String library) {
    return seekDelayMillis > 0
        ? java.util.Optional.of("seek-delay-ms=" + seekDelayMillis + ": " + library
            + " reads through its own file layer, so no seek delay is simulated")
        : java.util.Optional.empty();
  }
}

package dev.cairn.bench.engine;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * RocksDB through rocksdbjni: its defaults (leveled compaction) except the common settings, with
 * statistics on. Counters are RocksDB's tickers (peers.md): device writes = WAL + flush +
 * compaction bytes, stall time; per-level writes come from the {@code rocksdb.cfstats} map
 * property ({@link RocksDbLevelStats}).
 *
 * <p>Block cache hits and misses are those of user reads (gets and scans) only, as Cairn's
 * engines count them. RocksDB's {@code BLOCK_CACHE_DATA_HIT/MISS} tickers (9.7.3 and 11.8.1) also count the
 * cache lookups of compactions (measured: with no user read, a {@code compactRange} over 20 MiB of
 * 4 KiB blocks added ~6,600 data misses, and after 4,000 overwrites with a warm cache ~1,900 hits
 * and ~5,900 misses), so the hit ratio they give dips after every compaction for a reason no
 * user sees. Instead:
 * <ul>
 *   <li>hits come from the reading thread's perf context ({@link RocksDbUserReadHits});
 *   <li>misses are the {@code BLOCK_CACHE_DATA_ADD} ticker: a user read inserts every data block
 *       it missed into the cache, while compactions read with {@code fill_cache=false} and flushes
 *       do not read (no {@code paranoid_file_checks}, no {@code prepopulate_block_cache}). It
 *       equalled {@code BLOCK_CACHE_DATA_MISS} for user reads alone, gets and scans, buffered
 *       and direct. The perf context's {@code block_read_count} does not: under direct reads a
 *       scan's readahead buffer serves blocks without counting them (measured: 258 of 3,254).
 * </ul>
 *
 * <p>{@link Tuning#BEST} ({@code rocksdb-best}) is RocksDB as a user who wants its cache kept
 * would set it (shared/notes/peers.md): compaction output and flushed blocks inserted into the
 * cache ({@code prepopulate_block_cache=kFlushAndCompaction}, 11.1+), cache entries of obsolete
 * files erased ({@code uncache_aggressiveness=300}, 9.4+), index and filter blocks in the cache at
 * high priority with level 0's pinned, so that they count against the same budget. RocksJava has
 * no setter for the first two, so the column family's options come from RocksDB's own option
 * string ({@link #bestColumnFamilyOptions}). RocksJava's {@code HyperClockCache} reaches a column
 * family only inside a {@code BlockBasedTableConfig}, which replaces the string's table options and
 * has no setter for prepopulation; the string's own {@code hyper_clock_cache://}
 * form builds an AutoHyperClockCache of the default 32 MiB whatever capacity follows it (RocksJava
 * 11.8.1, read back from the LOG), so the cache is an LRU of the run's size with a high-priority
 * pool, not HyperClockCache. With prepopulation, flushes and
 * compactions add blocks too, so the {@code BLOCK_CACHE_DATA_ADD} ticker no longer counts user
 * misses alone: this tuning counts a miss as a data block the reading thread read from its file
 * (the perf context's block reads less index, filter and dictionary reads). That count is exact
 * for gets; under direct reads a scan's readahead serves some blocks uncounted, as said above.
 */
public final class RocksDbEngine implements BenchEngine {
  static {
    RocksDB.loadLibrary();
  }

  /**
   * RocksDB at its defaults (but the common settings), or with its cache-keeping options on; or
   * at its defaults without the runner's counting ({@code rocksdb-uncounted}): no
   * {@code Statistics} object (whose default level times every get) and no per-read perf context,
   * so that a series can tell what the counting costs RocksDB's reads. That engine reports no
   * hits, misses, bytes written or stalls.
   */
  public enum Tuning { DEFAULTS, BEST, UNCOUNTED }

  /** {@code uncache_aggressiveness} of {@link Tuning#BEST}: RocksDB's own suggested starting value. */
  static final int UNCACHE_AGGRESSIVENESS = 300;

  private final Tuning tuning;
  private Statistics statistics;
  private LRUCache cache;
  private BloomFilter bloom;
  private DBOptions dbOptions;
  private ColumnFamilyOptions columnFamilyOptions;
  private Options options;
  private RocksDB db;
  private RocksDbUserReadHits userReadHits;
  private List<String> unhonoured = List.of();

  public RocksDbEngine() {
    this(Tuning.DEFAULTS);
  }

  public RocksDbEngine(Tuning tuning) {
    this.tuning = tuning;
  }

  @Override
  public void open(Path dir, EngineSettings s) {
    unhonoured = s.seekDelayUnhonoured("rocksdb").stream().toList();
    statistics = tuning == Tuning.UNCOUNTED ? null : new Statistics();
    options = tuning == Tuning.BEST ? bestOptions(s) : defaultOptions(s);
    try {
      db = RocksDB.open(options, dir.toString());
      userReadHits = tuning == Tuning.UNCOUNTED ? null : new RocksDbUserReadHits(db);
    } catch (RocksDBException e) {
      close();
      throw new IllegalStateException("rocksdb open of " + dir + " failed: " + e.getMessage(), e);
    }
  }

  /** RocksDB's defaults with the common settings, through RocksJava's setters. */
  private Options defaultOptions(EngineSettings s) {
    cache = new LRUCache(s.blockCacheBytes());
    bloom = new BloomFilter(s.bloomBitsPerKey(), false);
    BlockBasedTableConfig table = new BlockBasedTableConfig()
        .setBlockSize(s.blockBytes())
        .setBlockCache(cache)
        .setFilterPolicy(bloom);
    Options options = new Options()
        .setCreateIfMissing(true)
        .setTableFormatConfig(table)
        .setCompressionType(compressionType(s.compression()))
        .setBottommostCompressionType(compressionType(s.compression()))
        .setWriteBufferSize(s.memtableBytes())
        .setUseDirectReads(s.directReads());
    if (s.compression().codec() == dev.cairn.config.Compression.Codec.ZSTD) {
      options.setCompressionOptions(new org.rocksdb.CompressionOptions().setLevel(s.compression().level()));
      options.setBottommostCompressionOptions(new org.rocksdb.CompressionOptions().setLevel(s.compression().level())
          .setEnabled(true));
    }
    if (statistics != null) {
      options.setStatistics(statistics);
    }
    if (s.backgroundThreads() > 0) {
      options.setMaxBackgroundJobs(s.backgroundThreads());
    }
    if (!s.engineDefaults()) {
      // Static level targets, so that L1 is exactly the configured size (RocksDB 8.4+ defaults
      // to dynamic level sizes computed from the last level). With --engine-defaults RocksDB
      // keeps its own: 256 MiB level base, 64 MiB tables, dynamic level sizes.
      options.setLevelCompactionDynamicLevelBytes(false)
          .setMaxBytesForLevelBase(s.baseLevelBytes())
          .setMaxBytesForLevelMultiplier(s.levelSizeRatio())
          .setTargetFileSizeBase(s.targetFileBytes());
    }
    return options;
  }

  /** {@link Tuning#BEST}: the database options through setters, the column family's from a string. */
  private Options bestOptions(EngineSettings s) {
    dbOptions = new DBOptions()
        .setCreateIfMissing(true)
        .setStatistics(statistics)
        .setUseDirectReads(s.directReads());
    if (s.backgroundThreads() > 0) {
      dbOptions.setMaxBackgroundJobs(s.backgroundThreads());
    }
    try (ConfigOptions config = new ConfigOptions()) {
      columnFamilyOptions = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(config, bestColumnFamilyOptions(s));
    }
    if (columnFamilyOptions == null) {
      dbOptions.close();
      throw new IllegalStateException("rocksdb refused rocksdb-best's option string: " + bestColumnFamilyOptions(s));
    }
    return new Options(dbOptions, columnFamilyOptions);
  }

  /** RocksDB's type for the runner's codec: the same library code, LZ4's block format and ZSTD's frames. */
  static CompressionType compressionType(dev.cairn.config.Compression c) {
    return switch (c.codec()) {
      case NONE -> CompressionType.NO_COMPRESSION;
      case LZ4 -> CompressionType.LZ4_COMPRESSION;
      case ZSTD -> CompressionType.ZSTD_COMPRESSION;
    };
  }

  /** {@link #compressionType}'s name in RocksDB's option strings. */
  static String compressionName(dev.cairn.config.Compression c) {
    return switch (c.codec()) {
      case NONE -> "kNoCompression";
      case LZ4 -> "kLZ4Compression";
      case ZSTD -> "kZSTD";
    };
  }

  /** The column family's options of {@link Tuning#BEST} as RocksDB's option strings. */
  public static Properties bestColumnFamilyOptions(EngineSettings s) {
    Properties p = new Properties();
    p.setProperty("write_buffer_size", Long.toString(s.memtableBytes()));
    p.setProperty("compression", compressionName(s.compression()));
    p.setProperty("bottommost_compression", compressionName(s.compression()));
    if (s.compression().codec() == dev.cairn.config.Compression.Codec.ZSTD) {
      String level = "level=" + s.compression().level();
      p.setProperty("compression_opts", "{" + level + "}");
      p.setProperty("bottommost_compression_opts", "{" + level + ";enabled=true}");
    }
    p.setProperty("uncache_aggressiveness", Integer.toString(UNCACHE_AGGRESSIVENESS));
    if (!s.engineDefaults()) {
      p.setProperty("level_compaction_dynamic_level_bytes", "false");
      p.setProperty("max_bytes_for_level_base", Long.toString(s.baseLevelBytes()));
      p.setProperty("max_bytes_for_level_multiplier", Integer.toString(s.levelSizeRatio()));
      p.setProperty("target_file_size_base", Long.toString(s.targetFileBytes()));
    }
    p.setProperty("block_based_table_factory", "{"
        + "block_size=" + s.blockBytes()
        + ";filter_policy=bloomfilter:" + s.bloomBitsPerKey() + ":false"
        + ";block_cache={capacity=" + s.blockCacheBytes() + ";high_pri_pool_ratio=0.5}"
        + ";cache_index_and_filter_blocks=true"
        + ";cache_index_and_filter_blocks_with_high_priority=true"
        + ";pin_l0_filter_and_index_blocks_in_cache=true"
        + ";prepopulate_block_cache=kFlushAndCompaction}");
    return p;
  }

  @Override
  public void put(byte[] key, byte[] value) {
    try {
      db.put(key, value);
    } catch (RocksDBException e) {
      throw new IllegalStateException("rocksdb put failed: " + e.getMessage(), e);
    }
  }

  @Override
  public byte[] get(byte[] key) {
    if (userReadHits == null) {
      return uncountedGet(key);
    }
    userReadHits.beforeRead();
    try {
      return uncountedGet(key);
    } finally {
      userReadHits.afterRead();
    }
  }

  private byte[] uncountedGet(byte[] key) {
    try {
      return db.get(key);
    } catch (RocksDBException e) {
      throw new IllegalStateException("rocksdb get failed: " + e.getMessage(), e);
    }
  }

  @Override
  public int scan(byte[] from, int limit) {
    if (userReadHits == null) {
      return uncountedScan(from, limit);
    }
    userReadHits.beforeRead();
    try {
      return uncountedScan(from, limit);
    } finally {
      userReadHits.afterRead();
    }
  }

  @Override
  public int scanBackward(byte[] from, int limit) {
    if (userReadHits != null) {
      userReadHits.beforeRead();
    }
    int n = 0;
    try (RocksIterator it = db.newIterator()) {
      for (it.seekForPrev(from); it.isValid() && n < limit; it.prev()) {
        it.key();
        it.value();
        n++;
      }
    } finally {
      if (userReadHits != null) {
        userReadHits.afterRead();
      }
    }
    return n;
  }

  private int uncountedScan(byte[] from, int limit) {
    int n = 0;
    try (RocksIterator it = db.newIterator()) {
      for (it.seek(from); it.isValid() && n < limit; it.next()) {
        it.key();
        it.value();
        n++;
      }
    }
    return n;
  }

  @Override
  public void flush() {
    try (FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
      db.flush(fo);
    } catch (RocksDBException e) {
      throw new IllegalStateException("rocksdb flush failed: " + e.getMessage(), e);
    }
  }

  @Override
  public java.util.Optional<Boolean> compactionsPending() {
    try {
      return java.util.Optional.of(db.getLongProperty("rocksdb.num-running-compactions") > 0
          || db.getLongProperty("rocksdb.compaction-pending") > 0
          || db.getLongProperty("rocksdb.num-running-flushes") > 0);
    } catch (RocksDBException e) {
      return java.util.Optional.empty();
    }
  }

  @Override
  public int l0Files() {
    try {
      return Integer.parseInt(db.getProperty("rocksdb.num-files-at-level0").trim());
    } catch (RocksDBException | NumberFormatException e) {
      return -1;
    }
  }

  @Override
  public EngineMetrics metrics() {
    if (statistics == null) {
      long none = EngineMetrics.UNAVAILABLE;
      return new EngineMetrics(none, none, none, none, none);
    }
    long compaction = statistics.getTickerCount(TickerType.COMPACT_WRITE_BYTES);
    return new EngineMetrics(
        userReadHits.dataHits(),
        tuning == Tuning.BEST ? userReadHits.dataReads() : statistics.getTickerCount(TickerType.BLOCK_CACHE_DATA_ADD),
        statistics.getTickerCount(TickerType.WAL_FILE_BYTES)
            + statistics.getTickerCount(TickerType.FLUSH_WRITE_BYTES) + compaction,
        compaction,
        statistics.getTickerCount(TickerType.STALL_MICROS));
  }

  @Override
  public long[] bytesWrittenByLevel() {
    try {
      return RocksDbLevelStats.bytesWrittenByLevel(db.getMapProperty("rocksdb.cfstats"));
    } catch (RocksDBException e) {
      return new long[0];
    }
  }

  /** Compacts the whole key range now and waits (tests: a compaction with no user read). */
  void compactAll() {
    try {
      db.compactRange();
    } catch (RocksDBException e) {
      throw new IllegalStateException("rocksdb compactRange failed: " + e.getMessage(), e);
    }
  }

  /** A raw RocksDB ticker (tests: what the tickers count that {@link #metrics} leaves out). */
  long ticker(TickerType type) {
    return statistics.getTickerCount(type);
  }

  @Override
  public List<String> unhonouredSettings() {
    return unhonoured;
  }

  @Override
  public void close() {
    if (db != null) {
      db.close();
      db = null;
    }
    userReadHits = null;
    for (AutoCloseable c : new AutoCloseable[] {options, columnFamilyOptions, dbOptions, bloom, cache, statistics}) {
      if (c != null) {
        try {
          c.close();
        } catch (Exception e) {
          throw new IllegalStateException("closing a rocksdb handle failed", e);
        }
      }
    }
    options = null;
    columnFamilyOptions = null;
    dbOptions = null;
    bloom = null;
    cache = null;
    statistics = null;
  }
}

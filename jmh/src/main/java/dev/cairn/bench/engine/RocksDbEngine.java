package dev.cairn.bench.engine;

import java.nio.file.Path;
import java.util.List;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
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
 * statistics on. Counters are RocksDB's tickers (peers.md): data-block cache hits and misses,
 * device writes = WAL + flush + compaction bytes, stall time; per-level writes come from the
 * {@code rocksdb.cfstats} map property ({@link RocksDbLevelStats}).
 */
public final class RocksDbEngine implements BenchEngine {
  static {
    RocksDB.loadLibrary();
  }

  private Statistics statistics;
  private LRUCache cache;
  private BloomFilter bloom;
  private Options options;
  private RocksDB db;
  private List<String> unhonoured = List.of();

  @Override
  public void open(Path dir, EngineSettings s) {
    unhonoured = s.seekDelayUnhonoured("rocksdb").stream().toList();
    statistics = new Statistics();
    cache = new LRUCache(s.blockCacheBytes());
    bloom = new BloomFilter(s.bloomBitsPerKey(), false);
    BlockBasedTableConfig table = new BlockBasedTableConfig()
        .setBlockSize(s.blockBytes())
        .setBlockCache(cache)
        .setFilterPolicy(bloom);
    options = new Options()
        .setCreateIfMissing(true)
        .setStatistics(statistics)
        .setTableFormatConfig(table)
        .setCompressionType(CompressionType.NO_COMPRESSION)
        .setBottommostCompressionType(CompressionType.NO_COMPRESSION)
        .setWriteBufferSize(s.memtableBytes())
        // Static level targets, so that L1 is exactly the configured size (RocksDB 8.4+ defaults
        // to dynamic level sizes computed from the last level).
        .setLevelCompactionDynamicLevelBytes(false)
        .setMaxBytesForLevelBase(s.baseLevelBytes())
        .setMaxBytesForLevelMultiplier(s.levelSizeRatio())
        .setTargetFileSizeBase(s.targetFileBytes())
        .setUseDirectReads(s.directReads());
    try {
      db = RocksDB.open(options, dir.toString());
    } catch (RocksDBException e) {
      close();
      throw new IllegalStateException("rocksdb open of " + dir + " failed: " + e.getMessage(), e);
    }
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
    try {
      return db.get(key);
    } catch (RocksDBException e) {
      throw new IllegalStateException("rocksdb get failed: " + e.getMessage(), e);
    }
  }

  @Override
  public int scan(byte[] from, int limit) {
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
  public int l0Files() {
    try {
      return Integer.parseInt(db.getProperty("rocksdb.num-files-at-level0").trim());
    } catch (RocksDBException | NumberFormatException e) {
      return -1;
    }
  }

  @Override
  public EngineMetrics metrics() {
    long compaction = statistics.getTickerCount(TickerType.COMPACT_WRITE_BYTES);
    return new EngineMetrics(
        statistics.getTickerCount(TickerType.BLOCK_CACHE_DATA_HIT),
        statistics.getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS),
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
    for (AutoCloseable c : new AutoCloseable[] {options, bloom, cache, statistics}) {
      if (c != null) {
        try {
          c.close();
        } catch (Exception e) {
          throw new IllegalStateException("closing a rocksdb handle failed", e);
        }
      }
    }
    options = null;
    bloom = null;
    cache = null;
    statistics = null;
  }
}

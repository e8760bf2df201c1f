package dev.cairn.bench.features;

import dev.cairn.bench.engine.EngineSettings;
import dev.cairn.bench.engine.RocksDbEngine;
import java.nio.file.Path;
import java.util.Properties;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * A RocksDB database through rocksdbjni, opened as {@code features}' two RocksDB engines are, with
 * the handles it was opened with (closed after it):
 *
 * <ul>
 *   <li>{@code rocksdb}: RocksDB's defaults but for an LRU block cache of the shared size (as
 *       {@link RocksDbEngine} sizes its own);
 *   <li>{@code rocksdb-best}: the column family's options of the runner's {@code rocksdb-best}
 *       ({@link RocksDbEngine#bestColumnFamilyOptions}: blocks of flushes and compactions put in
 *       the cache, obsolete files' entries erased, index and filter blocks cached at high priority
 *       with level 0's pinned, a 10-bit Bloom filter, an LRU cache of the shared size with a
 *       high-priority pool), given RocksDB's own defaults for everything the runner's common
 *       settings would otherwise set: a 64 MiB write buffer, 4 KiB blocks, its dynamic level sizes
 *       and its default codec (LZ4 in rocksdbjni 11.8.1's OPTIONS file), so that the two differ by
 *       the cache-keeping options and the filter alone.
 * </ul>
 *
 * Either may name a built-in merge operator (the counter experiment's {@code uint64add}) or none
 * (the range-delete experiment's). Neither keeps a {@code Statistics} object: bytes written are the
 * process's ({@code /proc/self/io}), as for Cairn.
 */
final class RocksOpen implements AutoCloseable {
  static {
    RocksDB.loadLibrary();
  }

  /** RocksDB's default {@code write_buffer_size}, written out because the runner's options string sets one. */
  static final long ROCKSDB_WRITE_BUFFER_BYTES = 64L << 20;
  /** RocksDB's default {@code block_size}, likewise. */
  static final int ROCKSDB_BLOCK_BYTES = 4096;

  final RocksDB db;
  // The handles the database was opened with, closed after it; any may be null.
  private final AutoCloseable[] handles;

  private RocksOpen(RocksDB db, AutoCloseable... handles) {
    this.db = db;
    this.handles = handles;
  }

  /** {@code rocksdb}: its defaults and the shared cache size; {@code mergeOperator} null for none. */
  static RocksOpen defaults(Path dir, long cacheBytes, String mergeOperator) {
    LRUCache cache = new LRUCache(cacheBytes);
    Options options = new Options()
        .setCreateIfMissing(true)
        .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache));
    if (mergeOperator != null) {
      options.setMergeOperatorName(mergeOperator);
    }
    return open(dir, options, options, cache);
  }

  /** {@code rocksdb-best}: {@link #bestColumnFamilyOptions}; {@code mergeOperator} null for none. */
  static RocksOpen best(Path dir, long cacheBytes, String mergeOperator) {
    DBOptions dbOptions = new DBOptions().setCreateIfMissing(true);
    ColumnFamilyOptions cf;
    try (ConfigOptions config = new ConfigOptions()) {
      cf = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(config, bestColumnFamilyOptions(cacheBytes));
    }
    if (cf == null) {
      dbOptions.close();
      throw new IllegalStateException("rocksdb refused rocksdb-best's option string: "
          + bestColumnFamilyOptions(cacheBytes));
    }
    if (mergeOperator != null) {
      cf.setMergeOperatorName(mergeOperator);
    }
    Options options = new Options(dbOptions, cf);
    return open(dir, options, options, cf, dbOptions);
  }

  /**
   * The runner's {@code rocksdb-best} column family options with RocksDB's own defaults in place of
   * the runner's common settings (see the class comment): its codec is left unset, so RocksDB
   * keeps its default.
   */
  static Properties bestColumnFamilyOptions(long cacheBytes) {
    EngineSettings s = new EngineSettings(cacheBytes, ROCKSDB_WRITE_BUFFER_BYTES, ROCKSDB_BLOCK_BYTES, 10, 0, 0, 0,
        false, 0, 0, 0, 0, 0, 0, true, 0, false);
    Properties p = RocksDbEngine.bestColumnFamilyOptions(s);
    p.remove("compression");
    p.remove("bottommost_compression");
    return p;
  }

  private static RocksOpen open(Path dir, Options options, AutoCloseable... handles) {
    try {
      return new RocksOpen(RocksDB.open(options, dir.toString()), handles);
    } catch (RocksDBException e) {
      closeAll(handles);
      throw new IllegalStateException("rocksdb open of " + dir + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    db.close();
    closeAll(handles);
  }

  private static void closeAll(AutoCloseable[] handles) {
    for (AutoCloseable h : handles) {
      if (h == null) {
        continue;
      }
      try {
        h.close();
      } catch (Exception e) {
        throw new IllegalStateException("closing a rocksdb handle failed", e);
      }
    }
  }
}

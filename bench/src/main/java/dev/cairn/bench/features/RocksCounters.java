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
 * RocksDB through rocksdbjni with its built-in {@code uint64add} merge operator, whose values are
 * fixed64 little-endian: the encoding of {@link dev.cairn.CounterOperator}.
 *
 * <ul>
 *   <li>{@code rocksdb}: RocksDB's defaults but for an LRU block cache of the shared size (as
 *       {@link RocksDbEngine} sizes its own) and the operator;
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
 * Neither keeps a {@code Statistics} object: bytes written are the process's ({@code
 * /proc/self/io}), as for Cairn.
 */
final class RocksCounters implements CounterStore {
  static {
    RocksDB.loadLibrary();
  }

  /** RocksDB's built-in 64-bit add ({@code UInt64AddOperator}). */
  static final String MERGE_OPERATOR = "uint64add";
  /** RocksDB's default {@code write_buffer_size}, written out because the runner's options string sets one. */
  static final long ROCKSDB_WRITE_BUFFER_BYTES = 64L << 20;
  /** RocksDB's default {@code block_size}, likewise. */
  static final int ROCKSDB_BLOCK_BYTES = 4096;

  private final RocksDB db;
  // The handles the database was opened with, closed after it; any may be null.
  private final AutoCloseable[] handles;

  private RocksCounters(RocksDB db, AutoCloseable... handles) {
    this.db = db;
    this.handles = handles;
  }

  /** {@code rocksdb}: its defaults, the shared cache size and {@code uint64add}. */
  static RocksCounters defaults(Path dir, long cacheBytes) {
    LRUCache cache = new LRUCache(cacheBytes);
    Options options = new Options()
        .setCreateIfMissing(true)
        .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache))
        .setMergeOperatorName(MERGE_OPERATOR);
    return open(dir, options, options, cache);
  }

  /** {@code rocksdb-best}: {@link #bestColumnFamilyOptions} and {@code uint64add}. */
  static RocksCounters best(Path dir, long cacheBytes) {
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
    cf.setMergeOperatorName(MERGE_OPERATOR);
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

  private static RocksCounters open(Path dir, Options options, AutoCloseable... handles) {
    try {
      return new RocksCounters(RocksDB.open(options, dir.toString()), handles);
    } catch (RocksDBException e) {
      closeAll(handles);
      throw new IllegalStateException("rocksdb open of " + dir + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void merge(byte[] key, byte[] operand) {
    try {
      db.merge(key, operand);
    } catch (RocksDBException e) {
      throw new IllegalStateException("rocksdb merge failed: " + e.getMessage(), e);
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
  public void put(byte[] key, byte[] value) {
    try {
      db.put(key, value);
    } catch (RocksDBException e) {
      throw new IllegalStateException("rocksdb put failed: " + e.getMessage(), e);
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

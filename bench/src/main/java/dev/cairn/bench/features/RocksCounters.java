package dev.cairn.bench.features;

import java.nio.file.Path;
import org.rocksdb.RocksDBException;

/**
 * RocksDB ({@link RocksOpen}: {@code rocksdb} at its defaults, {@code rocksdb-best} at the
 * runner's best options) with its built-in {@code uint64add} merge operator, whose values are
 * fixed64 little-endian: the encoding of {@link dev.cairn.CounterOperator}.
 */
final class RocksCounters implements CounterStore {
  /** RocksDB's built-in 64-bit add ({@code UInt64AddOperator}). */
  static final String MERGE_OPERATOR = "uint64add";

  private final RocksOpen rocks;

  private RocksCounters(RocksOpen rocks) {
    this.rocks = rocks;
  }

  /** {@code rocksdb}: its defaults, the shared cache size and {@code uint64add}. */
  static RocksCounters defaults(Path dir, long cacheBytes) {
    return new RocksCounters(RocksOpen.defaults(dir, cacheBytes, MERGE_OPERATOR));
  }

  /** {@code rocksdb-best}: {@link RocksOpen#bestColumnFamilyOptions} and {@code uint64add}. */
  static RocksCounters best(Path dir, long cacheBytes) {
    return new RocksCounters(RocksOpen.best(dir, cacheBytes, MERGE_OPERATOR));
  }

  @Override
  public void merge(byte[] key, byte[] operand) {
    try {
      rocks.db.merge(key, operand);
    } catch (RocksDBException e) {
      throw new IllegalStateException("rocksdb merge failed: " + e.getMessage(), e);
    }
  }

  @Override
  public byte[] get(byte[] key) {
    try {
      return rocks.db.get(key);
    } catch (RocksDBException e) {
      throw new IllegalStateException("rocksdb get failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void put(byte[] key, byte[] value) {
    try {
      rocks.db.put(key, value);
    } catch (RocksDBException e) {
      throw new IllegalStateException("rocksdb put failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    rocks.close();
  }
}

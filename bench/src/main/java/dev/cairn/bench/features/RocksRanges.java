package dev.cairn.bench.features;

import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * RocksDB for the range-delete experiment ({@link RocksOpen}: {@code rocksdb} or {@code
 * rocksdb-best}, no merge operator), writes through default {@code WriteOptions} (logged, unsynced,
 * as Cairn's).
 */
final class RocksRanges implements RangeStore {
  private final RocksOpen rocks;
  private final WriteOptions writeOptions = new WriteOptions();

  RocksRanges(RocksOpen rocks) {
    this.rocks = rocks;
  }

  @Override
  public void putBatch(byte[][] keys, byte[][] values, int count) {
    try (WriteBatch batch = new WriteBatch()) {
      for (int i = 0; i < count; i++) {
        batch.put(keys[i], values[i]);
      }
      rocks.db.write(writeOptions, batch);
    } catch (RocksDBException e) {
      throw failed("batch of puts", e);
    }
  }

  @Override
  public void deleteBatch(byte[][] keys, int count) {
    try (WriteBatch batch = new WriteBatch()) {
      for (int i = 0; i < count; i++) {
        batch.delete(keys[i]);
      }
      rocks.db.write(writeOptions, batch);
    } catch (RocksDBException e) {
      throw failed("batch of deletes", e);
    }
  }

  @Override
  public void deleteRange(byte[] from, byte[] toExclusive) {
    try {
      rocks.db.deleteRange(from, toExclusive);
    } catch (RocksDBException e) {
      throw failed("deleteRange", e);
    }
  }

  @Override
  public byte[] get(byte[] key) {
    try {
      return rocks.db.get(key);
    } catch (RocksDBException e) {
      throw failed("get", e);
    }
  }

  @Override
  public int scan(byte[] from, int limit, EntryVisitor visitor) {
    int n = 0;
    try (RocksIterator it = rocks.db.newIterator()) {
      for (it.seek(from); it.isValid() && n < limit; it.next()) {
        visitor.entry(it.key(), it.value());
        n++;
      }
      // An iterator that stops on an error is merely invalid: its status says which.
      it.status();
    } catch (RocksDBException e) {
      throw failed("scan", e);
    }
    return n;
  }

  @Override
  public void flush() {
    try (org.rocksdb.FlushOptions wait = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
      rocks.db.flush(wait);
    } catch (RocksDBException e) {
      throw failed("flush", e);
    }
  }

  @Override
  public void compactAll() {
    try {
      rocks.db.compactRange();
    } catch (RocksDBException e) {
      throw failed("compactRange", e);
    }
  }

  /** A flush or compaction running or pending, by RocksDB's own properties. */
  @Override
  public boolean busy() {
    try {
      return rocks.db.getLongProperty("rocksdb.num-running-compactions") > 0
          || rocks.db.getLongProperty("rocksdb.num-running-flushes") > 0
          || rocks.db.getLongProperty("rocksdb.compaction-pending") > 0
          || rocks.db.getLongProperty("rocksdb.mem-table-flush-pending") > 0;
    } catch (RocksDBException e) {
      throw failed("getLongProperty", e);
    }
  }

  @Override
  public void close() {
    writeOptions.close();
    rocks.close();
  }

  private static IllegalStateException failed(String what, RocksDBException e) {
    return new IllegalStateException("rocksdb " + what + " failed: " + e.getMessage(), e);
  }
}

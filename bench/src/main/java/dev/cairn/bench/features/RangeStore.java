package dev.cairn.bench.features;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One open database as the range-delete experiment uses it: batched puts and deletes, one range
 * delete, point reads, short scans through an iterator, a full manual compaction. Errors are
 * unchecked; closing waits for what the engine does on close.
 */
interface RangeStore extends AutoCloseable {
  /** What a scan hands each entry it reads. */
  @FunctionalInterface
  interface EntryVisitor {
    void entry(byte[] key, byte[] value);
  }

  /** Puts {@code keys[0..count)} with {@code values[0..count)} as one write batch. */
  void putBatch(byte[][] keys, byte[][] values, int count);

  /** Deletes {@code keys[0..count)} as one write batch of point deletes. */
  void deleteBatch(byte[][] keys, int count);

  /** Deletes every key in {@code [from, toExclusive)} with the engine's one range-delete call. */
  void deleteRange(byte[] from, byte[] toExclusive);

  /** {@code key}'s value; null for a key absent or deleted. */
  byte[] get(byte[] key);

  /**
   * Opens an iterator, seeks it to {@code from} and hands {@code visitor} the next {@code limit}
   * entries or those up to the end; returns how many it read.
   */
  int scan(byte[] from, int limit, EntryVisitor visitor);

  /** Flushes the memtable to a table; returns once it is written (the background work it causes may go on). */
  void flush();

  /** A full manual compaction of every level, the memtable flushed first; returns when done. */
  void compactAll();

  /**
   * Whether the engine has background work running or wanted (a flush, a compaction, a level over
   * its target): the load waits until it has none, so that the timed phases after it start from
   * a settled database and their bytes written are theirs.
   */
  boolean busy();

  @Override
  void close();

  /**
   * Opens {@code engine}'s database in {@code dir} (created, with its parents) with a block cache of
   * {@code cacheBytes}, without a merge operator.
   */
  static RangeStore open(String engine, Path dir, long cacheBytes) throws IOException {
    Files.createDirectories(dir.getParent());
    return switch (engine) {
      case CounterEngines.CAIRN, CounterEngines.CAIRN_AA -> new CairnRanges(dir, cacheBytes);
      case CounterEngines.ROCKSDB -> new RocksRanges(RocksOpen.defaults(dir, cacheBytes, null));
      case CounterEngines.ROCKSDB_BEST -> new RocksRanges(RocksOpen.best(dir, cacheBytes, null));
      default -> throw new IllegalArgumentException("no engine '" + engine + "' (valid: "
          + String.join(", ", CounterEngines.NAMES) + ")");
    };
  }
}

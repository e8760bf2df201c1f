package dev.cairn;

import dev.cairn.db.DbImpl;
import dev.cairn.db.Repair;
import java.nio.file.Path;

/**
 * An embedded, persistent, ordered key-value store (an LSM-tree). Keys and values are byte
 * arrays; keys order as unsigned bytes. All methods are thread-safe.
 *
 * <p>Writes are atomic per call ({@link #write(WriteBatch, WriteOptions)} for several keys) and
 * become durable according to {@link WriteOptions#sync()}: an acknowledged synced write survives
 * a process crash or power loss; an unsynced one survives a process crash once the OS has it.
 * A reopen finds a prefix of the writes in commit order: a synced write makes the writes before
 * it durable too, and no later write survives without the earlier ones (docs/operations.md,
 * "Durability").
 *
 * <pre>{@code
 * try (Cairn db = Cairn.open(dir, Options.defaults())) {
 *   db.put(key, value);
 *   byte[] v = db.get(key);
 * }
 * }</pre>
 */
public interface Cairn extends AutoCloseable {
  /**
   * Opens (creating if {@link Options#createIfMissing()}) the database in {@code dir}, recovering
   * from its manifest and write-ahead log. Only one opener at a time: a second gets an exception
   * naming the held lock.
   */
  static Cairn open(Path dir, Options options) {
    return DbImpl.open(dir, options, null);
  }

  /**
   * Opens the database in {@code dir} as {@link #open(Path, Options)} does, on the block cache,
   * background threads and memtable budget of {@code shared}, which many databases of one process
   * may use at once (docs/operations.md, "Many databases in one process"). The options' own
   * {@code blockCacheBytes}, {@code blockCacheEvictionPolicy} and {@code backgroundThreads} must
   * stay at their defaults: the shared ones replace them.
   *
   * @throws IllegalArgumentException if the options set what {@code shared} provides
   * @throws IllegalStateException if {@code shared} is closed
   */
  static Cairn open(Path dir, Options options, SharedResources shared) {
    if (shared == null) {
      throw new IllegalArgumentException("shared resources must not be null (Cairn.open(dir, options) for none)");
    }
    return DbImpl.open(dir, options, shared.forDatabase(options));
  }

  /**
   * Opens a read-only, point-in-time view of the existing database in {@code dir}: what the
   * manifest and the write-ahead logs held at the open, replayed into memory. It writes nothing
   * (no log, manifest, table or compaction) and takes no LOCK, so it may look at a database
   * another process holds; writes, flushes and compactions throw {@link ReadOnlyException}.
   * Tables the manifest names must exist ({@link MissingFilesException} otherwise).
   *
   * <p>Beside a live owner the view goes stale as the owner flushes and compacts: a read that
   * needs a file the owner has since deleted throws {@link DatabaseChangedException}; close the
   * view and open a new one. The owner's unsynced writes appear only as far as its log reached
   * the operating system.
   */
  static Cairn openReadOnly(Path dir, Options options) {
    return DbImpl.openReadOnly(dir, options);
  }

  /**
   * Makes a database that fails to open with {@link MissingFilesException} open again: drops
   * from the manifest every table that is missing or shorter than recorded and reports each with
   * the key range it held. Keys in a dropped level table's range read as their older versions
   * below it, or as absent; a dropped compaction-buffer file loses nothing (the buffer holds
   * copies). Takes the LOCK; writes one manifest edit and nothing else, and nothing at all when
   * every table is present. Restore the files from a backup instead if you can.
   */
  static RepairReport repair(Path dir, Options options) {
    return Repair.run(dir, options);
  }

  void put(byte[] key, byte[] value);

  void put(byte[] key, byte[] value, WriteOptions options);

  /** Returns the newest value of {@code key}, or null when it is absent or deleted. */
  byte[] get(byte[] key);

  /** Reads as of {@code options.snapshot()} when it is set. */
  byte[] get(byte[] key, ReadOptions options);

  void delete(byte[] key);

  void delete(byte[] key, WriteOptions options);

  /**
   * Deletes every key in [{@code from}, {@code toExclusive}) with one range tombstone (RocksDB's
   * {@code DeleteRange}): whatever the range holds, the write costs one log record, and reads,
   * iterators and snapshots taken after it see none of the range's older keys. Compactions drop
   * the covered entries as they rewrite them (docs/api.md, "Range deletions").
   *
   * @throws IllegalArgumentException if a bound is not a valid key or the range is empty or
   *     inverted (nothing is written)
   */
  void deleteRange(byte[] from, byte[] toExclusive);

  void deleteRange(byte[] from, byte[] toExclusive, WriteOptions options);

  /**
   * Combines {@code operand} with {@code key}'s value through the database's {@link
   * MergeOperator} (RocksDB's {@code Merge}), without reading it: the operand is stored, and reads
   * and compactions apply it. Refused with an {@link IllegalArgumentException}, writing nothing,
   * when the database has no merge operator or the operator refuses the operand.
   */
  void merge(byte[] key, byte[] operand);

  void merge(byte[] key, byte[] operand, WriteOptions options);

  /** Applies every operation of {@code batch} atomically. */
  void write(WriteBatch batch);

  void write(WriteBatch batch, WriteOptions options);

  /** A consistent point-in-time view; close it to let compactions drop what it pins. */
  Snapshot snapshot();

  /** An iterator over the live keys, bounded and pinned to a snapshot as {@code options} says. */
  CairnIterator iterator(ReadOptions options);

  default CairnIterator iterator() {
    return iterator(ReadOptions.DEFAULT);
  }

  /**
   * Up to {@code limit} entries with {@code from <= key < toExclusive} in key order
   * ({@code toExclusive} null means unbounded).
   */
  java.util.List<Entry> scan(byte[] from, byte[] toExclusive, int limit);

  /** Writes the memtable to an L0 table and waits until it is installed. */
  void flush();

  /**
   * Compacts every level's files overlapping the user-key range {@code [from, to]} (null for an
   * open end) down the tree, waiting until done.
   */
  void compactRange(byte[] from, byte[] to);

  /**
   * Makes an openable copy of this database in {@code dir}, which must not exist, while writes go
   * on: the memtable is flushed first, so the copy holds every write acknowledged before the call
   * (and perhaps some made during it). Tables are hard-linked where the file system allows and
   * copied where not; the copy takes no more space than its new manifest until this database
   * compacts the linked tables away. The directory appears whole or not at all
   * (docs/operations.md, "Checkpoints").
   *
   * @throws IllegalArgumentException if {@code dir} is inside this database's directory
   * @throws CairnException if {@code dir} exists, or another checkpoint into it is being made
   *     (by this process or another)
   * @throws ReadOnlyException on a read-only view
   */
  void checkpoint(Path dir);

  Stats stats();

  /**
   * Reads every block of every live table and checks its checksum; throws
   * {@link CorruptionException} naming the first damaged file and offset. Returns the number of
   * tables verified.
   */
  default int verifyChecksums() {
    return verifyChecksums(VerifyProgress.NONE);
  }

  /** As {@link #verifyChecksums()}, telling {@code progress} after each table. */
  int verifyChecksums(VerifyProgress progress);

  /**
   * Starts recording to {@code file}, which must not exist, every block-cache lookup of a user
   * read, every block cached and every deleted file's blocks dropped, until {@link
   * #endBlockCacheTrace} or {@link #close}: a trace that replays against other cache sizes and
   * policies ({@code dev.cairn.cache.BlockCacheTraceReplay}; docs/operations.md, "Block cache
   * traces"). A trace costs each lookup one record of 29 bytes, appended under a lock. Throws
   * {@link IllegalStateException} if a trace is being recorded, {@link CairnIOException} if the
   * file cannot be created.
   */
  void startBlockCacheTrace(Path file);

  /**
   * Ends the trace {@link #startBlockCacheTrace} began and closes its file, returning the records
   * written. Throws {@link IllegalStateException} if no trace is being recorded, {@link
   * CairnIOException} if writing it failed (the records before the failure are in the file).
   */
  long endBlockCacheTrace();

  /**
   * Waits for background work, then releases every resource; a block cache trace still being
   * recorded is ended and its file closed. Idempotent.
   */
  @Override
  void close();
}

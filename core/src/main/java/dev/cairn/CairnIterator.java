package dev.cairn;

/**
 * An iterator over live user keys and their values in key order, seeing one snapshot, in both
 * directions: {@link #next()} and {@link #prev()} may be mixed freely, and the read options'
 * bounds hold both ways (nothing below the lower bound, nothing at or above the upper one).
 * Not thread-safe; close it to release the files and version it pins, and the cached blocks
 * it holds: those live off the heap, so an iterator dropped without {@link #close()} keeps them
 * (and its version's files) until the process ends, whatever the garbage collector does.
 *
 * <p>Moving backward costs more than moving forward, as in LevelDB and RocksDB: a memtable steps
 * back with a search from its head, a data block by decoding forward from the restart point
 * before the entry, and every change of direction seeks every source once.
 */
public interface CairnIterator extends AutoCloseable {
  boolean isValid();

  void seekToFirst();

  /** Positions at the first key {@code >= key}. */
  void seek(byte[] key);

  /** Positions at the last key (below the upper bound, if there is one). */
  void seekToLast();

  /** Positions at the last key {@code <= key}. */
  void seekForPrev(byte[] key);

  /** Requires: {@link #isValid()}. */
  void next();

  /** Moves to the key before the current one, or leaves the iterator invalid. Requires: {@link #isValid()}. */
  void prev();

  /** Requires: {@link #isValid()}. */
  byte[] key();

  /** Requires: {@link #isValid()}. */
  byte[] value();

  @Override
  void close();
}

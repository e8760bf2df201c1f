package dev.cairn;

/**
 * A forward iterator over live user keys and their values in key order, seeing one snapshot.
 * Not thread-safe; close it to release the files and version it pins.
 */
public interface CairnIterator extends AutoCloseable {
  boolean isValid();

  void seekToFirst();

  /** Positions at the first key {@code >= key}. */
  void seek(byte[] key);

  /** Requires: {@link #isValid()}. */
  void next();

  /** Requires: {@link #isValid()}. */
  byte[] key();

  /** Requires: {@link #isValid()}. */
  byte[] value();

  @Override
  void close();
}

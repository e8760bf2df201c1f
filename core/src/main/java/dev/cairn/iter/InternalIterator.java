package dev.cairn.iter;

/**
 * An iterator over internal entries (internal key, value) in {@link
 * dev.cairn.key.InternalKeyComparator} order. Memtables, blocks, tables, levels and the merging
 * iterator all implement it. Not thread-safe. Positioning methods may throw
 * {@link dev.cairn.CorruptionException} when they meet damaged data.
 *
 * <p>Returned arrays must not be modified by the caller; an implementation may return the same
 * array again but never mutates one it has returned.
 */
public interface InternalIterator extends AutoCloseable {
  boolean isValid();

  void seekToFirst();

  /** Positions at the first entry whose internal key is {@code >= target}. */
  void seek(byte[] internalKeyTarget);

  /** Requires: {@link #isValid()}. */
  void next();

  /** Requires: {@link #isValid()}. */
  byte[] key();

  /** Requires: {@link #isValid()}. */
  byte[] value();

  /**
   * The current value in an array no one else holds, which the caller may keep and modify: what
   * a user-facing iterator hands out. An iterator that decodes values from a block returns its
   * decoded copy, so a scan copies each value once, not twice. Requires: {@link #isValid()}.
   */
  default byte[] ownedValue() {
    return value().clone();
  }

  /** Releases pinned blocks, files or versions. Idempotent. */
  @Override
  void close();
}

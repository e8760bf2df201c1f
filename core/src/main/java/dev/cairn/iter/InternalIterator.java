package dev.cairn.iter;

import dev.cairn.key.InternalKeyComparator;
import java.util.Comparator;

/**
 * An iterator over internal entries (internal key, value) in {@link
 * dev.cairn.key.InternalKeyComparator} order, in both directions. Memtables, blocks, tables, levels
 * and the merging iterator all implement it. Not thread-safe. Positioning methods may throw
 * {@link dev.cairn.CorruptionException} when they meet damaged data.
 *
 * <p>{@link #next()} and {@link #prev()} may be mixed freely: {@code prev()} after {@code next()}
 * returns to the entry before, whatever the iterator had to do to change direction.
 *
 * <p>Returned arrays must not be modified by the caller; an implementation may return the same
 * array again but never mutates one it has returned.
 */
public interface InternalIterator extends AutoCloseable {
  boolean isValid();

  void seekToFirst();

  /** Positions at the first entry whose internal key is {@code >= target}. */
  void seek(byte[] internalKeyTarget);

  /** Positions at the last entry, or leaves the iterator invalid when there is none. */
  void seekToLast();

  /**
   * Positions at the last entry whose internal key is {@code <= target}. This default seeks forward
   * and steps back at most once; an iterator that can do better overrides it.
   */
  default void seekForPrev(byte[] internalKeyTarget) {
    seekForPrevBySeeking(this, internalKeyTarget, InternalKeyComparator.INSTANCE);
  }

  /** {@code it.seekForPrev(target)} in {@code order}: a seek forward, then at most one step back. */
  static void seekForPrevBySeeking(InternalIterator it, byte[] target, Comparator<byte[]> order) {
    it.seek(target);
    if (!it.isValid()) {
      it.seekToLast();
    } else if (order.compare(it.key(), target) > 0) {
      it.prev();
    }
  }

  /** Requires: {@link #isValid()}. */
  void next();

  /** Moves to the entry before the current one, or leaves the iterator invalid. Requires: {@link #isValid()}. */
  void prev();

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

  /**
   * A bound on the sequence of every entry this iterator yields ({@link Long#MAX_VALUE}: none
   * known): what lets a range tombstone newer than all of them skip them wholesale ({@link
   * #skipOlder}).
   */
  default long largestSequence() {
    return Long.MAX_VALUE;
  }

  /**
   * Moving forward: moves past everything before {@code target} that is older than {@code
   * sequence}, where that can be done wholesale (a merge's children whose {@link
   * #largestSequence()} is below it seek to {@code target}); returns whether anything moved. What
   * is left before {@code target} is newer, or could not be told apart. A range tombstone's reader
   * calls it with the end of the fragment it covers and its sequence. The default moves nothing.
   */
  default boolean skipOlder(byte[] target, long sequence) {
    return false;
  }

  /**
   * Moving backward, the mirror of {@link #skipOlder}: moves before {@code target} everything at
   * or after it that is older than {@code sequence}, where that can be done wholesale (a merge's
   * children whose {@link #largestSequence()} is below it go to their last entry before {@code
   * target}); returns whether anything moved. A range tombstone's reader calls it with the start
   * of the fragment it covers. The default moves nothing.
   */
  default boolean skipOlderBackward(byte[] target, long sequence) {
    return false;
  }

  /** Releases pinned blocks, files or versions. Idempotent. */
  @Override
  void close();
}

package dev.cairn.iter;

import dev.cairn.CairnIterator;
import dev.cairn.DatabaseClosedException;
import dev.cairn.key.InternalKey;
import dev.cairn.key.UserKeys;
import dev.cairn.key.ValueType;
import java.util.Arrays;
import java.util.NoSuchElementException;

/**
 * The user's view of the database: turns an internal iterator (normally a {@link
 * dev.cairn.iter.MergingIterator} over memtables and tables) into live user keys at one snapshot.
 *
 * <ul>
 *   <li>entries with a sequence above the snapshot are invisible;
 *   <li>of the visible entries of a user key only the newest counts (internal order puts it
 *       first);
 *   <li>a key whose newest visible entry is a tombstone is hidden;
 *   <li>keys below {@code lowerBound} are never shown ({@link #seekToFirst()} seeks to it, a seek
 *       below it is clamped up) and the iterator becomes invalid at the first key {@code >=
 *       upperBound}, without reading further (so a bounded scan does not walk tombstones beyond
 *       its range); backward the same, mirrored ({@link #seekToLast()} starts below {@code
 *       upperBound}, a scan stops at the first key below {@code lowerBound}).
 * </ul>
 *
 * <p>Invariants while valid (LevelDB's DBIter): moving forward, the internal iterator is
 * positioned on the entry being shown, the newest visible entry of {@link #key()}; moving
 * backward, it is positioned before every entry of {@link #key()} (on the last entry of a smaller
 * user key, or invalid), and the entry shown is held here. Backward, the entries of a user key
 * arrive oldest first, so each visible one replaces the one held until a smaller user key
 * begins. A change of direction steps the internal iterator across the shown key's entries.
 *
 * <p>{@link #key()} and {@link #value()} return arrays the caller owns and may modify. A {@link
 * dev.cairn.CorruptionException} from the internal iterator propagates; afterwards the iterator
 * may only be re-positioned or closed. Not thread-safe.
 */
public final class DbIterator implements CairnIterator {
  private final InternalIterator internal;
  private final long snapshotSequence;
  private final byte[] lowerBound;
  private final byte[] upperBound;
  /** Null: values are shown as stored. Else the user's value of each, or a tombstone. */
  private final StoredValues storedValues;
  private Runnable onClose;

  private boolean closed;
  /** The user key shown, a private copy; null when not valid. */
  private byte[] currentKey;
  /** Whether the last positioning moved backward (see the invariants). */
  private boolean backward;
  /**
   * The value shown when moving backward (an array the internal iterator returned, never
   * mutated), or with {@link #storedValues} in either direction (the user's value); else null.
   */
  private byte[] heldValue;

  /**
   * @param internal merged internal entries; owned (closed) by this iterator
   * @param snapshotSequence entries with a larger sequence are invisible
   * @param lowerBound smallest user key shown (inclusive), or null
   * @param upperBound user keys {@code >=} this are not shown, or null
   * @param onClose runs exactly once, on the first {@link #close()}, after the internal iterator
   *     is closed (the engine releases the version and memtables there); may be null
   */
  public DbIterator(
      InternalIterator internal,
      long snapshotSequence,
      byte[] lowerBound,
      byte[] upperBound,
      Runnable onClose) {
    this(internal, snapshotSequence, lowerBound, upperBound, null, onClose);
  }

  /** As the other constructor, reading each value through {@code storedValues} (null: as stored). */
  public DbIterator(
      InternalIterator internal,
      long snapshotSequence,
      byte[] lowerBound,
      byte[] upperBound,
      StoredValues storedValues,
      Runnable onClose) {
    this.storedValues = storedValues;
    this.internal = internal;
    this.snapshotSequence = Math.min(snapshotSequence, InternalKey.MAX_SEQUENCE);
    this.lowerBound = lowerBound == null ? null : lowerBound.clone();
    this.upperBound = upperBound == null ? null : upperBound.clone();
    this.onClose = onClose;
  }

  @Override
  public boolean isValid() {
    ensureOpen();
    return currentKey != null;
  }

  @Override
  public void seekToFirst() {
    ensureOpen();
    forget(false);
    if (lowerBound != null) {
      internal.seek(InternalKey.seekKey(lowerBound, snapshotSequence));
    } else {
      internal.seekToFirst();
    }
    findVisibleEntry(null);
  }

  @Override
  public void seek(byte[] key) {
    ensureOpen();
    forget(false);
    byte[] target = lowerBound != null && UserKeys.compare(key, lowerBound) < 0 ? lowerBound : key;
    internal.seek(InternalKey.seekKey(target, snapshotSequence));
    findVisibleEntry(null);
  }

  @Override
  public void seekToLast() {
    ensureOpen();
    forget(true);
    if (upperBound != null) {
      internal.seekForPrev(InternalKey.seekKey(upperBound, InternalKey.MAX_SEQUENCE));
      while (internal.isValid() && InternalKey.compareUserKey(upperBound, internal.key()) <= 0) {
        internal.prev();
      }
    } else {
      internal.seekToLast();
    }
    findVisibleEntryBackward();
  }

  @Override
  public void seekForPrev(byte[] key) {
    ensureOpen();
    if (upperBound != null && UserKeys.compare(key, upperBound) >= 0) {
      seekToLast();
      return;
    }
    forget(true);
    // The largest internal key of the user key: every entry of it is <= this one.
    internal.seekForPrev(InternalKey.encode(key, 0, ValueType.DELETION));
    findVisibleEntryBackward();
  }

  @Override
  public void next() {
    ensureOpen();
    requireValid();
    if (backward) {
      // The internal iterator is before the shown key's entries: step into them, then past them.
      byte[] shown = InternalKey.encode(currentKey, 0, ValueType.DELETION);
      forget(false);
      if (internal.isValid()) {
        internal.next();
      } else if (lowerBound != null) {
        internal.seek(InternalKey.seekKey(lowerBound, InternalKey.MAX_SEQUENCE));
      } else {
        internal.seekToFirst();
      }
      findVisibleEntry(shown);
      return;
    }
    byte[] shownInternalKey = internal.key();
    currentKey = null;
    internal.next();
    findVisibleEntry(shownInternalKey);
  }

  @Override
  public void prev() {
    ensureOpen();
    requireValid();
    if (!backward) {
      // The internal iterator is on the shown entry; entries before it of the same user key are
      // newer than the snapshot. Step back past all of them.
      byte[] shown = currentKey;
      forget(true);
      do {
        internal.prev();
      } while (internal.isValid() && InternalKey.compareUserKey(shown, internal.key()) <= 0);
    }
    findVisibleEntryBackward();
  }

  @Override
  public byte[] key() {
    ensureOpen();
    requireValid();
    return currentKey.clone();
  }

  @Override
  public byte[] value() {
    ensureOpen();
    requireValid();
    return heldValue != null ? heldValue.clone() : internal.ownedValue();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    currentKey = null;
    heldValue = null;
    Runnable release = onClose;
    onClose = null;
    try {
      internal.close();
    } finally {
      if (release != null) {
        release.run();
      }
    }
  }

  /**
   * Advances the internal iterator to the newest visible entry of the next live user key, or
   * leaves this iterator invalid.
   *
   * @param skipThrough an internal key whose user key (and all smaller ones) must be skipped
   *     because it was already decided (shown or deleted); null to skip nothing
   */
  private void findVisibleEntry(byte[] skipThrough) {
    for (; internal.isValid(); internal.next()) {
      byte[] ikey = internal.key();
      if (upperBound != null
          && Arrays.compareUnsigned(
                  ikey, 0, InternalKey.userKeyLength(ikey), upperBound, 0, upperBound.length)
              >= 0) {
        return;
      }
      if (InternalKey.sequence(ikey) > snapshotSequence) {
        continue;
      }
      if (skipThrough != null && InternalKey.compareUserKeys(ikey, skipThrough) <= 0) {
        continue;
      }
      ValueType type = InternalKey.type(ikey);
      byte[] userValue = type == ValueType.VALUE && storedValues != null ? storedValues.userValue(internal.value()) : null;
      if (type == ValueType.DELETION || (storedValues != null && type == ValueType.VALUE && userValue == null)) {
        // The newest visible entry of this key is a tombstone (or reads as one): hide the key and
        // its older entries.
        skipThrough = ikey;
      } else if (type == ValueType.VALUE) {
        currentKey = InternalKey.userKey(ikey);
        heldValue = userValue;
        return;
      } else {
        throw new IllegalStateException(
            "internal iterator yielded a key of unknown type (its source must report corruption): "
                + InternalKey.describe(ikey));
      }
    }
  }

  /**
   * Moves the internal iterator back to the newest visible entry of the previous live user key
   * (the largest below where it stands), holding that entry, or leaves this iterator invalid. On
   * return the internal iterator is before every entry of the key shown.
   */
  private void findVisibleEntryBackward() {
    currentKey = null;
    heldValue = null;
    for (; internal.isValid(); internal.prev()) {
      byte[] ikey = internal.key();
      if (lowerBound != null && InternalKey.compareUserKey(lowerBound, ikey) > 0) {
        return;
      }
      if (InternalKey.sequence(ikey) > snapshotSequence) {
        continue;
      }
      if (currentKey != null && InternalKey.compareUserKey(currentKey, ikey) > 0) {
        return; // a smaller user key begins: the one held is the newest visible of its key
      }
      ValueType type = InternalKey.type(ikey);
      byte[] value = type == ValueType.VALUE
          ? (storedValues != null ? storedValues.userValue(internal.value()) : internal.value()) : null;
      if (type == ValueType.DELETION || (type == ValueType.VALUE && value == null)) {
        currentKey = null; // a newer tombstone (or a value that reads as one) hides what was held
        heldValue = null;
      } else if (type == ValueType.VALUE) {
        currentKey = InternalKey.userKey(ikey);
        heldValue = value;
      } else {
        throw new IllegalStateException(
            "internal iterator yielded a key of unknown type (its source must report corruption): "
                + InternalKey.describe(ikey));
      }
    }
  }

  /** Shows nothing, about to move in the given direction. */
  private void forget(boolean towardSmaller) {
    currentKey = null;
    heldValue = null;
    backward = towardSmaller;
  }

  private void ensureOpen() {
    if (closed) {
      throw new DatabaseClosedException("iterator");
    }
  }

  private void requireValid() {
    if (currentKey == null) {
      throw new NoSuchElementException("iterator is not positioned on a key");
    }
  }
}

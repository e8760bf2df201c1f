package dev.cairn.iter;

import dev.cairn.CairnIterator;
import dev.cairn.DatabaseClosedException;
import dev.cairn.key.InternalKey;
import dev.cairn.key.MergeOperands;
import dev.cairn.key.Merger;
import dev.cairn.key.RangeTombstones;
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
 *   <li>merge operands above a key's newest visible value or tombstone (or above nothing) are
 *       merged onto it ({@link Merger}), and the result is shown;
 *   <li>an entry a visible range tombstone covers ({@link #withRangeTombstones}: one newer than
 *       the entry, over its key) reads as a tombstone;
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
 * begins. A change of direction steps the internal iterator across the shown key's entries. A
 * key shown forward whose newest entry is a merge operand is held too (its merged value), and the
 * internal iterator stands past the operands, on an older entry of the key or beyond it. Every
 * positioning forgets the key shown before it searches, so a merge that throws shows no key.
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
  private final Merger merger;
  /** Range tombstones over the internal iterator's entries ({@link RangeTombstones#EMPTY}: none). */
  private RangeTombstones rangeTombstones = RangeTombstones.EMPTY;
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
  /** Moving forward, whether the internal iterator stands past the shown entry (a merged key). */
  private boolean pastShown;

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
    this(internal, snapshotSequence, lowerBound, upperBound, null, Merger.NONE, onClose);
  }

  /**
   * As the other constructor, reading each value through {@code storedValues} (null: as stored)
   * and merging operands with {@code merger}.
   */
  public DbIterator(
      InternalIterator internal,
      long snapshotSequence,
      byte[] lowerBound,
      byte[] upperBound,
      StoredValues storedValues,
      Merger merger,
      Runnable onClose) {
    this.storedValues = storedValues;
    this.merger = merger;
    this.internal = internal;
    this.snapshotSequence = Math.min(snapshotSequence, InternalKey.MAX_SEQUENCE);
    this.lowerBound = lowerBound == null ? null : lowerBound.clone();
    this.upperBound = upperBound == null ? null : upperBound.clone();
    this.onClose = onClose;
  }

  /** Reads the entries {@code tombstones} cover (at this iterator's snapshot) as deleted. Before positioning. */
  public DbIterator withRangeTombstones(RangeTombstones tombstones) {
    this.rangeTombstones = tombstones;
    return this;
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
    byte[] shownInternalKey;
    if (pastShown) {
      shownInternalKey = InternalKey.encode(currentKey, 0, ValueType.DELETION);
    } else {
      shownInternalKey = internal.key();
      internal.next();
    }
    forget(false);
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
      boolean past = pastShown;
      forget(true);
      if (past) {
        // Past a merged key's operands, perhaps past the end: land before the key's entries.
        internal.seekForPrev(InternalKey.seekKey(shown, InternalKey.MAX_SEQUENCE));
      } else {
        internal.prev();
      }
      while (internal.isValid() && InternalKey.compareUserKey(shown, internal.key()) <= 0) {
        internal.prev();
      }
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
    while (internal.isValid()) {
      byte[] ikey = internal.key();
      if (upperBound != null
          && Arrays.compareUnsigned(
                  ikey, 0, InternalKey.userKeyLength(ikey), upperBound, 0, upperBound.length)
              >= 0) {
        return;
      }
      if (InternalKey.sequence(ikey) > snapshotSequence
          || (skipThrough != null && InternalKey.compareUserKeys(ikey, skipThrough) <= 0)) {
        internal.next();
        continue;
      }
      if (rangeTombstones.coversEntry(ikey, snapshotSequence)) {
        skipThrough = ikey; // its older entries are covered too
        if (!skipCoveredFragment(ikey)) {
          internal.next();
        }
        continue;
      }
      ValueType type = InternalKey.type(ikey);
      byte[] userValue = type == ValueType.VALUE && storedValues != null ? storedValues.userValue(internal.value()) : null;
      if (type == ValueType.DELETION || (storedValues != null && type == ValueType.VALUE && userValue == null)) {
        // The newest visible entry of this key is a tombstone (or reads as one): hide the key and
        // its older entries.
        skipThrough = ikey;
        internal.next();
      } else if (type == ValueType.VALUE) {
        currentKey = InternalKey.userKey(ikey);
        heldValue = userValue;
        return;
      } else if (type == ValueType.MERGE) {
        showMergedForward(ikey);
        return;
      } else {
        throw new IllegalStateException(
            "internal iterator yielded a key of unknown type (its source must report corruption): "
                + InternalKey.describe(ikey));
      }
    }
  }

  /**
   * {@code covered} is covered by a range tombstone: moves the sources older than the tombstone
   * past the end of its fragment at once ({@link InternalIterator#skipOlder}; every entry of theirs
   * before it is covered), rather than stepping over each covered entry. Returns whether anything
   * moved; what is left before the end is newer than the tombstone, or could not be told apart,
   * and is read as usual.
   */
  private boolean skipCoveredFragment(byte[] covered) {
    int length = InternalKey.userKeyLength(covered);
    byte[] end = rangeTombstones.fragmentEnd(covered, length);
    long sequence = rangeTombstones.coverSequence(covered, length, snapshotSequence);
    return end != null && internal.skipOlder(InternalKey.seekKey(end, InternalKey.MAX_SEQUENCE), sequence);
  }

  /**
   * Moving backward, {@code covered} is covered by a range tombstone: the mirror of {@link
   * #skipCoveredFragment}, moving the sources older than the tombstone before the start of its
   * fragment at once ({@link InternalIterator#skipOlderBackward}).
   */
  private boolean skipCoveredFragmentBackward(byte[] covered) {
    int length = InternalKey.userKeyLength(covered);
    byte[] start = rangeTombstones.fragmentStart(covered, length);
    long sequence = rangeTombstones.coverSequence(covered, length, snapshotSequence);
    return start != null
        && internal.skipOlderBackward(InternalKey.seekKey(start, InternalKey.MAX_SEQUENCE), sequence);
  }

  /**
   * Shows the key of {@code newest}, its newest visible entry and a merge operand: gathers the
   * operands below it down to the key's value, tombstone or last entry and holds their merge. The
   * internal iterator stops past the operands (on that value or tombstone, or past the key).
   */
  private void showMergedForward(byte[] newest) {
    MergeOperands operands = new MergeOperands();
    byte[] base = null;
    for (; internal.isValid() && InternalKey.compareUserKeys(internal.key(), newest) == 0; internal.next()) {
      ValueType type = InternalKey.type(internal.key());
      if (type != ValueType.MERGE || rangeTombstones.coversEntry(internal.key(), snapshotSequence)) {
        base = type == ValueType.VALUE && !rangeTombstones.coversEntry(internal.key(), snapshotSequence)
            ? internal.value() : null;
        break;
      }
      operands.add(internal.value());
    }
    byte[] userKey = InternalKey.userKey(newest);
    heldValue = operands.resolve(merger, userKey, base); // a merge that fails shows no key (forgotten before)
    currentKey = userKey;
    pastShown = true;
  }

  /**
   * Moves the internal iterator back to the newest visible entry of the previous live user key
   * (the largest below where it stands), holding its value (merged, where merge operands top
   * it), or leaves this iterator invalid. On return the internal iterator is before every entry
   * of the key shown. A key's entries arrive oldest first: a value or tombstone replaces what was
   * gathered for the key, an operand is gathered on top, and the key is decided when a smaller
   * one begins.
   */
  private void findVisibleEntryBackward() {
    currentKey = null;
    heldValue = null;
    byte[] gathering = null; // the user key whose entries are being read
    byte[] base = null; // its newest value read so far, or null (none, or a newer tombstone)
    MergeOperands operands = null; // operands newer than base, newest first
    while (internal.isValid()) {
      byte[] ikey = internal.key();
      if (lowerBound != null && InternalKey.compareUserKey(lowerBound, ikey) > 0) {
        break;
      }
      if (InternalKey.sequence(ikey) > snapshotSequence) {
        internal.prev();
        continue;
      }
      if (gathering != null && InternalKey.compareUserKey(gathering, ikey) > 0) {
        if (show(gathering, base, operands)) {
          return; // a smaller user key begins and the one gathered is live
        }
        base = null;
        operands = null;
      }
      if (gathering == null || InternalKey.compareUserKey(gathering, ikey) != 0) {
        gathering = InternalKey.userKey(ikey);
      }
      ValueType type = InternalKey.type(ikey);
      if (rangeTombstones.coversEntry(ikey, snapshotSequence)) {
        base = null; // covered by a range tombstone: reads as a tombstone
        operands = null;
        if (skipCoveredFragmentBackward(ikey)) {
          continue; // the sources older than the tombstone are now before its fragment
        }
      } else if (type == ValueType.VALUE) {
        // A value that reads as a tombstone (expired) is one.
        base = storedValues != null ? storedValues.userValue(internal.value()) : internal.value();
        operands = null;
      } else if (type == ValueType.DELETION) {
        base = null;
        operands = null;
      } else if (type == ValueType.MERGE) {
        operands = operands != null ? operands : new MergeOperands();
        operands.addNewest(internal.value());
      } else {
        throw new IllegalStateException(
            "internal iterator yielded a key of unknown type (its source must report corruption): "
                + InternalKey.describe(ikey));
      }
      internal.prev();
    }
    if (gathering != null) {
      show(gathering, base, operands);
    }
  }

  /** Shows {@code userKey} with {@code base} and the operands on it (null: none), if that is a value. */
  private boolean show(byte[] userKey, byte[] base, MergeOperands operands) {
    byte[] value = operands == null ? base : operands.resolve(merger, userKey, base);
    if (value == null) {
      return false;
    }
    currentKey = userKey;
    heldValue = value;
    return true;
  }

  /** Shows nothing, about to move in the given direction. */
  private void forget(boolean towardSmaller) {
    currentKey = null;
    heldValue = null;
    pastShown = false;
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

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
 *       its range).
 * </ul>
 *
 * <p>Invariant while valid: the internal iterator is positioned on the entry being shown, the
 * newest visible entry of {@link #key()}.
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
  private Runnable onClose;

  private boolean closed;
  /** The user key shown, a private copy; null when not valid. */
  private byte[] currentKey;

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
    currentKey = null;
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
    currentKey = null;
    byte[] target = lowerBound != null && UserKeys.compare(key, lowerBound) < 0 ? lowerBound : key;
    internal.seek(InternalKey.seekKey(target, snapshotSequence));
    findVisibleEntry(null);
  }

  @Override
  public void next() {
    ensureOpen();
    requireValid();
    byte[] shownInternalKey = internal.key();
    currentKey = null;
    internal.next();
    findVisibleEntry(shownInternalKey);
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
    return internal.ownedValue();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    currentKey = null;
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
      if (type == ValueType.DELETION) {
        // The newest visible entry of this key is a tombstone: hide the key and its older entries.
        skipThrough = ikey;
      } else if (type == ValueType.VALUE) {
        currentKey = InternalKey.userKey(ikey);
        return;
      } else {
        throw new IllegalStateException(
            "internal iterator yielded a key of unknown type (its source must report corruption): "
                + InternalKey.describe(ikey));
      }
    }
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

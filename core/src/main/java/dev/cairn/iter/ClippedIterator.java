package dev.cairn.iter;

import dev.cairn.key.InternalKeyComparator;
import java.util.NoSuchElementException;

/**
 * The entries of an iterator whose internal keys lie in [{@code lowest}, {@code highest}]
 * (inclusive): a scan reading a level file's range from the files a merge made it of ({@code
 * db.BufferScans}), which hold entries outside that range too. Bounds are internal keys so that a
 * user key whose versions two adjacent files split between them is read once, each version from
 * the range that holds it.
 */
public final class ClippedIterator implements InternalIterator {
  private static final InternalKeyComparator ORDER = InternalKeyComparator.INSTANCE;

  private final InternalIterator inner;
  private final byte[] lowest;
  private final byte[] highest;
  /** Whether the last move went backward (then the inner iterator may stand below lowest). */
  private boolean backward;

  public ClippedIterator(InternalIterator inner, byte[] lowest, byte[] highest) {
    this.inner = inner;
    this.lowest = lowest;
    this.highest = highest;
  }

  @Override
  public boolean isValid() {
    if (!inner.isValid()) {
      return false;
    }
    byte[] key = inner.key();
    // Moving forward from a seek clamped to lowest never goes below it: only a backward move can.
    return ORDER.compare(key, highest) <= 0 && (!backward || ORDER.compare(key, lowest) >= 0);
  }

  @Override
  public void seekToFirst() {
    backward = false;
    inner.seek(lowest);
  }

  @Override
  public void seek(byte[] internalKeyTarget) {
    backward = false;
    inner.seek(ORDER.compare(internalKeyTarget, lowest) < 0 ? lowest : internalKeyTarget);
  }

  @Override
  public void seekToLast() {
    backward = true;
    inner.seekForPrev(highest);
  }

  @Override
  public void seekForPrev(byte[] internalKeyTarget) {
    backward = true;
    inner.seekForPrev(ORDER.compare(internalKeyTarget, highest) > 0 ? highest : internalKeyTarget);
  }

  @Override
  public void next() {
    requireValid();
    inner.next();
  }

  @Override
  public void prev() {
    requireValid();
    backward = true;
    inner.prev();
  }

  @Override
  public byte[] key() {
    requireValid();
    return inner.key();
  }

  @Override
  public byte[] value() {
    requireValid();
    return inner.value();
  }

  @Override
  public byte[] ownedValue() {
    requireValid();
    return inner.ownedValue();
  }

  private void requireValid() {
    if (!isValid()) {
      throw new NoSuchElementException("iterator is not positioned at an entry");
    }
  }

  @Override
  public void close() {
    inner.close();
  }
}

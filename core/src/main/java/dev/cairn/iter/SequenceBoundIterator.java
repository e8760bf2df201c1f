package dev.cairn.iter;

/**
 * An iterator whose entries are known to be no newer than a sequence (a table's, or a level's
 * largest): it tells a merge so ({@link InternalIterator#largestSequence()}), which lets a range
 * tombstone newer than all of them skip them wholesale. Otherwise it is the iterator it wraps.
 */
public final class SequenceBoundIterator implements InternalIterator {
  private final InternalIterator inner;
  private final long largestSequence;

  public SequenceBoundIterator(InternalIterator inner, long largestSequence) {
    this.inner = inner;
    this.largestSequence = largestSequence;
  }

  @Override
  public long largestSequence() {
    return largestSequence;
  }

  @Override
  public boolean isValid() {
    return inner.isValid();
  }

  @Override
  public void seekToFirst() {
    inner.seekToFirst();
  }

  @Override
  public void seek(byte[] internalKeyTarget) {
    inner.seek(internalKeyTarget);
  }

  @Override
  public void seekToLast() {
    inner.seekToLast();
  }

  @Override
  public void seekForPrev(byte[] internalKeyTarget) {
    inner.seekForPrev(internalKeyTarget);
  }

  @Override
  public void next() {
    inner.next();
  }

  @Override
  public void prev() {
    inner.prev();
  }

  @Override
  public byte[] key() {
    return inner.key();
  }

  @Override
  public byte[] value() {
    return inner.value();
  }

  @Override
  public byte[] ownedValue() {
    return inner.ownedValue();
  }

  @Override
  public void close() {
    inner.close();
  }
}

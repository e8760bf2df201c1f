package dev.cairn.iter;

/**
 * An internal iterator that passes every call to the one it wraps: the base of wrappers that
 * change one thing (what closing releases, the sequence bound they report).
 */
public abstract class ForwardingIterator implements InternalIterator {
  protected final InternalIterator inner;

  protected ForwardingIterator(InternalIterator inner) {
    this.inner = inner;
  }

  @Override public boolean isValid() { return inner.isValid(); }
  @Override public void seekToFirst() { inner.seekToFirst(); }
  @Override public void seek(byte[] target) { inner.seek(target); }
  @Override public void seekToLast() { inner.seekToLast(); }
  @Override public void seekForPrev(byte[] target) { inner.seekForPrev(target); }
  @Override public void next() { inner.next(); }
  @Override public void prev() { inner.prev(); }
  @Override public byte[] key() { return inner.key(); }
  @Override public byte[] value() { return inner.value(); }
  @Override public byte[] ownedValue() { return inner.ownedValue(); }
  @Override public long largestSequence() { return inner.largestSequence(); }
  @Override public boolean skipOlder(byte[] target, long sequence) { return inner.skipOlder(target, sequence); }
  @Override public boolean skipOlderBackward(byte[] target, long sequence) {
    return inner.skipOlderBackward(target, sequence);
  }
  @Override public void close() { inner.close(); }
}

package dev.cairn.iter;

import dev.cairn.key.InternalKeyComparator;

/** Yields one entry, then throws the given exception from next() and prev(). */
public final class FailingIterator implements InternalIterator {
  private final byte[] key;
  private final RuntimeException failure;
  private boolean valid;
  public boolean closed;

  public FailingIterator(byte[] key, RuntimeException failure) {
    this.key = key;
    this.failure = failure;
  }

  @Override
  public boolean isValid() {
    return valid;
  }

  @Override
  public void seekToFirst() {
    valid = true;
  }

  @Override
  public void seek(byte[] target) {
    valid = InternalKeyComparator.INSTANCE.compare(key, target) >= 0;
  }

  @Override
  public void seekToLast() {
    valid = true;
  }

  @Override
  public void next() {
    throw failure;
  }

  @Override
  public void prev() {
    throw failure;
  }

  @Override
  public byte[] key() {
    return key;
  }

  @Override
  public byte[] value() {
    return new byte[0];
  }

  @Override
  public void close() {
    closed = true;
  }
}

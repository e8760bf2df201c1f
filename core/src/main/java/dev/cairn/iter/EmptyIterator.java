package dev.cairn.iter;

import java.util.NoSuchElementException;

/** An iterator over nothing: a level without files, a memtable slot that is absent. */
public final class EmptyIterator implements InternalIterator {
  @Override
  public boolean isValid() {
    return false;
  }

  @Override
  public void seekToFirst() {}

  @Override
  public void seek(byte[] internalKeyTarget) {}

  @Override
  public void seekToLast() {}

  @Override
  public void seekForPrev(byte[] internalKeyTarget) {}

  @Override
  public void next() {
    throw new NoSuchElementException("empty iterator has no entries");
  }

  @Override
  public void prev() {
    throw new NoSuchElementException("empty iterator has no entries");
  }

  @Override
  public byte[] key() {
    throw new NoSuchElementException("empty iterator has no entries");
  }

  @Override
  public byte[] value() {
    throw new NoSuchElementException("empty iterator has no entries");
  }

  @Override
  public void close() {}
}

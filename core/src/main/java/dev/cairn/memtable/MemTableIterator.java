package dev.cairn.memtable;

import dev.cairn.iter.InternalIterator;
import java.util.NoSuchElementException;

/**
 * Walks a memtable's {@link ArenaSkipList}: a seek is one search, {@link #next()} one link,
 * {@link #prev()} a search for the last node before the current key (the list has no back links,
 * as in LevelDB). The
 * key and value of the current entry are each copied out of the arena once per position.
 */
final class MemTableIterator implements InternalIterator {
  private final ArenaSkipList table;
  private int node;
  private byte[] key;
  private byte[] value;

  MemTableIterator(ArenaSkipList table) {
    this.table = table;
  }

  @Override
  public boolean isValid() {
    return node != 0;
  }

  @Override
  public void seekToFirst() {
    moveTo(table.first());
  }

  @Override
  public void seek(byte[] internalKeyTarget) {
    moveTo(table.seek(internalKeyTarget));
  }

  @Override
  public void seekToLast() {
    moveTo(table.last());
  }

  @Override
  public void next() {
    requireValid();
    moveTo(table.next(node));
  }

  @Override
  public void prev() {
    requireValid();
    moveTo(table.lessThan(key()));
  }

  @Override
  public byte[] key() {
    requireValid();
    if (key == null) {
      key = table.key(node);
    }
    return key;
  }

  @Override
  public byte[] value() {
    requireValid();
    if (value == null) {
      value = table.value(node);
    }
    return value;
  }

  /** A fresh copy, unless {@link #value()} already made (and shared) one. */
  @Override
  public byte[] ownedValue() {
    requireValid();
    return value != null ? value.clone() : table.value(node);
  }

  @Override
  public void close() {
    node = 0;
    key = null;
    value = null;
  }

  private void moveTo(int next) {
    node = next;
    key = null;
    value = null;
  }

  private void requireValid() {
    if (node == 0) {
      throw new NoSuchElementException("memtable iterator is not positioned on an entry");
    }
  }
}

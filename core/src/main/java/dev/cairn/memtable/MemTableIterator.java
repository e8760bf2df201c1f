package dev.cairn.memtable;

import dev.cairn.iter.InternalIterator;
import java.util.NoSuchElementException;

/**
 * Walks a memtable's {@link ArenaSkipList}: a seek is one search, {@link #next()} one link,
 * {@link #prev()} a search for the last node before the current key (the list has no back links,
 * as in LevelDB). The
 * key of the current entry is copied out of the arena once per position; the value is the array
 * the memtable holds.
 */
final class MemTableIterator implements InternalIterator {
  private final ArenaSkipList table;
  private int node;
  private byte[] key;

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
    return table.value(node);
  }

  @Override
  public void close() {
    node = 0;
    key = null;
  }

  private void moveTo(int next) {
    node = next;
    key = null;
  }

  private void requireValid() {
    if (node == 0) {
      throw new NoSuchElementException("memtable iterator is not positioned on an entry");
    }
  }
}

package dev.cairn.memtable;

import dev.cairn.iter.InternalIterator;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Walks a memtable's skiplist. Each positioning call takes a fresh weakly consistent iterator
 * over the tail of the map, so {@link #next()} costs O(1) rather than a new O(log n) search.
 */
final class MemTableIterator implements InternalIterator {
  private final ConcurrentSkipListMap<byte[], byte[]> table;
  private Iterator<Map.Entry<byte[], byte[]>> cursor;
  private Map.Entry<byte[], byte[]> current;

  MemTableIterator(ConcurrentSkipListMap<byte[], byte[]> table) {
    this.table = table;
  }

  @Override
  public boolean isValid() {
    return current != null;
  }

  @Override
  public void seekToFirst() {
    cursor = table.entrySet().iterator();
    advance();
  }

  @Override
  public void seek(byte[] internalKeyTarget) {
    cursor = table.tailMap(internalKeyTarget, true).entrySet().iterator();
    advance();
  }

  @Override
  public void next() {
    requireValid();
    advance();
  }

  @Override
  public byte[] key() {
    requireValid();
    return current.getKey();
  }

  @Override
  public byte[] value() {
    requireValid();
    return current.getValue();
  }

  @Override
  public void close() {
    cursor = null;
    current = null;
  }

  private void advance() {
    current = cursor.hasNext() ? cursor.next() : null;
  }

  private void requireValid() {
    if (current == null) {
      throw new NoSuchElementException("memtable iterator is not positioned on an entry");
    }
  }
}

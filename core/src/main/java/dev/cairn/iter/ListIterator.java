package dev.cairn.iter;

import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * An iterator over an in-memory list of (internal key, value) pairs sorted by {@link
 * InternalKeyComparator}. Meant for tests and for small fixed inputs; it remembers whether it was
 * closed so tests can check that owners close their children.
 */
public final class ListIterator implements InternalIterator {
  private final List<byte[]> keys;
  private final List<byte[]> values;
  private int position;
  private boolean closed;

  /**
   * @param sortedEntries internal keys with their values, strictly ascending by {@link
   *     InternalKeyComparator}
   * @throws IllegalArgumentException if the keys are not strictly ascending
   */
  public ListIterator(List<? extends Map.Entry<byte[], byte[]>> sortedEntries) {
    keys = new ArrayList<>(sortedEntries.size());
    values = new ArrayList<>(sortedEntries.size());
    for (Map.Entry<byte[], byte[]> e : sortedEntries) {
      if (!keys.isEmpty()
          && InternalKeyComparator.INSTANCE.compare(keys.get(keys.size() - 1), e.getKey()) >= 0) {
        throw new IllegalArgumentException(
            "entries not strictly ascending at " + InternalKey.describe(e.getKey()));
      }
      keys.add(e.getKey());
      values.add(e.getValue());
    }
    position = keys.size();
  }

  /** An iterator over {@code (internal key, value)} given as alternating arguments. */
  public static ListIterator of(byte[]... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("expected key, value pairs");
    }
    List<Map.Entry<byte[], byte[]>> entries = new ArrayList<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      entries.add(Map.entry(keysAndValues[i], keysAndValues[i + 1]));
    }
    return new ListIterator(entries);
  }

  @Override
  public boolean isValid() {
    return position < keys.size();
  }

  @Override
  public void seekToFirst() {
    position = 0;
  }

  @Override
  public void seek(byte[] internalKeyTarget) {
    int lo = 0;
    int hi = keys.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (InternalKeyComparator.INSTANCE.compare(keys.get(mid), internalKeyTarget) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    position = lo;
  }

  @Override
  public void seekToLast() {
    position = keys.isEmpty() ? keys.size() : keys.size() - 1;
  }

  @Override
  public void next() {
    requireValid();
    position++;
  }

  /** Stepping back from the first entry leaves the iterator invalid, as stepping past the last does. */
  @Override
  public void prev() {
    requireValid();
    position = position == 0 ? keys.size() : position - 1;
  }

  @Override
  public byte[] key() {
    requireValid();
    return keys.get(position);
  }

  @Override
  public byte[] value() {
    requireValid();
    return values.get(position);
  }

  @Override
  public void close() {
    closed = true;
  }

  public boolean isClosed() {
    return closed;
  }

  public int size() {
    return keys.size();
  }

  private void requireValid() {
    if (!isValid()) {
      throw new NoSuchElementException("list iterator at " + position + " of " + keys.size());
    }
  }

  @Override
  public String toString() {
    return "ListIterator" + Arrays.toString(keys.stream().map(InternalKey::describe).toArray());
  }
}

package dev.cairn.iter;

import dev.cairn.key.InternalKeyComparator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * Iterates a key-ordered list of non-overlapping items (the tables of one L1+ level) as one
 * sequence, opening at most one item at a time and only when the iteration reaches it.
 *
 * <p>Requires: the items are sorted and do not overlap, i.e. every key of item {@code i} is
 * smaller than every key of item {@code i + 1}, and {@code largestInternalKey} returns the largest
 * internal key of an item. A seek binary-searches the first item whose largest key is {@code >=}
 * the target (no other item can hold the target), so it touches one item, plus the following ones
 * only if that item yields nothing.
 *
 * <p>Moving to another item closes the previous child; {@link #close()} closes the open one.
 *
 * @param <T> the item type, e.g. a table's metadata
 */
public final class ConcatenatingIterator<T> implements InternalIterator {
  private final List<T> items;
  private final Function<T, byte[]> largestInternalKey;
  private final Function<T, InternalIterator> opener;

  /** Index of the item {@link #child} iterates, or -1 when none is open. */
  private int openIndex = -1;
  private InternalIterator child;

  public ConcatenatingIterator(
      List<T> items, Function<T, byte[]> largestInternalKey, Function<T, InternalIterator> opener) {
    this.items = List.copyOf(items);
    this.largestInternalKey = largestInternalKey;
    this.opener = opener;
  }

  @Override
  public boolean isValid() {
    return child != null && child.isValid();
  }

  @Override
  public void seekToFirst() {
    if (items.isEmpty()) {
      closeChild();
      return;
    }
    open(0);
    child.seekToFirst();
    skipExhaustedItems();
  }

  @Override
  public void seek(byte[] internalKeyTarget) {
    int index = firstItemEndingAtOrAfter(internalKeyTarget);
    if (index == items.size()) {
      closeChild();
      return;
    }
    open(index);
    child.seek(internalKeyTarget);
    skipExhaustedItems();
  }

  @Override
  public void seekToLast() {
    if (items.isEmpty()) {
      closeChild();
      return;
    }
    open(items.size() - 1);
    child.seekToLast();
    skipExhaustedItemsBackward();
  }

  @Override
  public void next() {
    requireValid();
    child.next();
    skipExhaustedItems();
  }

  @Override
  public void prev() {
    requireValid();
    child.prev();
    skipExhaustedItemsBackward();
  }

  @Override
  public byte[] key() {
    requireValid();
    return child.key();
  }

  @Override
  public byte[] value() {
    requireValid();
    return child.value();
  }

  @Override
  public byte[] ownedValue() {
    requireValid();
    return child.ownedValue();
  }

  @Override
  public void close() {
    closeChild();
  }

  /** The index of the first item whose largest key is {@code >= target}, or {@code items.size()}. */
  private int firstItemEndingAtOrAfter(byte[] target) {
    int lo = 0;
    int hi = items.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (InternalKeyComparator.INSTANCE.compare(largestInternalKey.apply(items.get(mid)), target)
          < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** While the open item is exhausted, moves on to the start of the next one. */
  private void skipExhaustedItems() {
    while (!child.isValid()) {
      if (openIndex + 1 >= items.size()) {
        closeChild();
        return;
      }
      open(openIndex + 1);
      child.seekToFirst();
    }
  }

  /** While the open item is exhausted, moves back to the end of the one before. */
  private void skipExhaustedItemsBackward() {
    while (!child.isValid()) {
      if (openIndex == 0) {
        closeChild();
        return;
      }
      open(openIndex - 1);
      child.seekToLast();
    }
  }

  /** Makes item {@code index} the open child, reusing it if it is already open. */
  private void open(int index) {
    if (index == openIndex) {
      return;
    }
    closeChild();
    child = opener.apply(items.get(index));
    openIndex = index;
  }

  private void closeChild() {
    if (child != null) {
      InternalIterator closing = child;
      child = null;
      openIndex = -1;
      closing.close();
    }
  }

  private void requireValid() {
    if (!isValid()) {
      throw new NoSuchElementException("concatenating iterator is not positioned on an entry");
    }
  }
}

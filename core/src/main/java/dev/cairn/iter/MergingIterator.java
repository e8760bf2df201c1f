package dev.cairn.iter;

import dev.cairn.key.InternalKeyComparator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Merges N child iterators into one in {@link InternalKeyComparator} order, with a binary
 * min-heap of the valid children keyed by their current key. {@link #next()} advances only the
 * child at the top and sifts it down: O(log N) per entry.
 *
 * <p>Ties (the same internal key in two children, which should not happen since sequences are
 * unique) go to the child with the lower index, so callers list children newest first (memtable,
 * immutable memtables, L0 newest to oldest, then levels).
 *
 * <p>If a child throws (e.g. {@link dev.cairn.CorruptionException}) the exception propagates and
 * the iterator is left unpositioned ({@link #isValid()} false) until the next seek; it must
 * still be closed. Closing closes every child.
 */
public final class MergingIterator implements InternalIterator {
  private final InternalIterator[] children;
  /** Indexes into {@link #children} of the valid children, a min-heap by (key, index). */
  private final int[] heap;
  private int heapSize;
  private boolean closed;

  public MergingIterator(List<? extends InternalIterator> children) {
    this.children = children.toArray(new InternalIterator[0]);
    this.heap = new int[this.children.length];
  }

  @Override
  public boolean isValid() {
    return heapSize > 0;
  }

  @Override
  public void seekToFirst() {
    heapSize = 0;
    for (InternalIterator child : children) {
      child.seekToFirst();
    }
    rebuildHeap();
  }

  @Override
  public void seek(byte[] internalKeyTarget) {
    heapSize = 0;
    for (InternalIterator child : children) {
      child.seek(internalKeyTarget);
    }
    rebuildHeap();
  }

  @Override
  public void next() {
    requireValid();
    int top = heap[0];
    try {
      children[top].next();
    } catch (RuntimeException e) {
      heapSize = 0;
      throw e;
    }
    if (!children[top].isValid()) {
      heap[0] = heap[--heapSize];
    }
    if (heapSize > 0) {
      siftDown(0);
    }
  }

  @Override
  public byte[] key() {
    requireValid();
    return children[heap[0]].key();
  }

  @Override
  public byte[] value() {
    requireValid();
    return children[heap[0]].value();
  }

  @Override
  public byte[] ownedValue() {
    requireValid();
    return children[heap[0]].ownedValue();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    heapSize = 0;
    RuntimeException failure = null;
    for (InternalIterator child : children) {
      try {
        child.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private void rebuildHeap() {
    for (int i = 0; i < children.length; i++) {
      if (children[i].isValid()) {
        heap[heapSize++] = i;
      }
    }
    for (int i = heapSize / 2 - 1; i >= 0; i--) {
      siftDown(i);
    }
  }

  private void siftDown(int slot) {
    int moving = heap[slot];
    while (true) {
      int smallest = 2 * slot + 1;
      if (smallest >= heapSize) {
        break;
      }
      int right = smallest + 1;
      if (right < heapSize && less(heap[right], heap[smallest])) {
        smallest = right;
      }
      if (!less(heap[smallest], moving)) {
        break;
      }
      heap[slot] = heap[smallest];
      slot = smallest;
    }
    heap[slot] = moving;
  }

  /** Whether child {@code a} comes before child {@code b}: smaller key, then lower index. */
  private boolean less(int a, int b) {
    int c = InternalKeyComparator.INSTANCE.compare(children[a].key(), children[b].key());
    return c < 0 || (c == 0 && a < b);
  }

  private void requireValid() {
    if (heapSize == 0) {
      throw new NoSuchElementException("merging iterator is not positioned on an entry");
    }
  }
}

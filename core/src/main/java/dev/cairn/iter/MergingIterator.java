package dev.cairn.iter;

import dev.cairn.key.InternalKeyComparator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Merges N child iterators into one in {@link InternalKeyComparator} order, with a binary heap of
 * the valid children keyed by their current key: a min-heap moving forward, a max-heap moving
 * backward. {@link #next()} and {@link #prev()} move only the child at the top and sift it down:
 * O(log N) per entry.
 *
 * <p><b>Changing direction</b> (LevelDB's rule). Moving forward, every child is at its first entry
 * {@code >=} the current key; moving backward, at its last entry {@code <=} it. A {@link #prev()}
 * after {@link #next()} therefore first puts every other child at its last entry {@code <} the
 * current key (a seek, then one step back or to its end), and a {@code next()} after {@code
 * prev()} puts them at their first entry {@code >} it; a change of direction costs a seek in every
 * child.
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
  /** Whether the heap orders children largest first: the last move was backward. */
  private boolean backward;
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
    rebuildHeap(false);
  }

  @Override
  public void seek(byte[] internalKeyTarget) {
    heapSize = 0;
    for (InternalIterator child : children) {
      child.seek(internalKeyTarget);
    }
    rebuildHeap(false);
  }

  @Override
  public void seekToLast() {
    heapSize = 0;
    for (InternalIterator child : children) {
      child.seekToLast();
    }
    rebuildHeap(true);
  }

  @Override
  public void seekForPrev(byte[] internalKeyTarget) {
    heapSize = 0;
    for (InternalIterator child : children) {
      child.seekForPrev(internalKeyTarget);
    }
    rebuildHeap(true);
  }

  @Override
  public void next() {
    requireValid();
    int top = heap[0];
    try {
      if (backward) {
        byte[] current = children[top].key();
        heapSize = 0;
        for (int i = 0; i < children.length; i++) {
          if (i != top) {
            placeAfter(children[i], current);
          }
        }
        children[top].next();
        rebuildHeap(false);
        return;
      }
      children[top].next();
    } catch (RuntimeException e) {
      heapSize = 0;
      throw e;
    }
    settleTop(top);
  }

  @Override
  public void prev() {
    requireValid();
    int top = heap[0];
    try {
      if (!backward) {
        byte[] current = children[top].key();
        heapSize = 0;
        for (int i = 0; i < children.length; i++) {
          if (i != top) {
            placeBefore(children[i], current);
          }
        }
        children[top].prev();
        rebuildHeap(true);
        return;
      }
      children[top].prev();
    } catch (RuntimeException e) {
      heapSize = 0;
      throw e;
    }
    settleTop(top);
  }

  @Override
  public boolean skipOlder(byte[] target, long sequence) {
    if (backward || heapSize == 0) {
      return false;
    }
    boolean moved = false;
    for (InternalIterator child : children) {
      if (child.isValid() && child.largestSequence() < sequence
          && InternalKeyComparator.INSTANCE.compare(child.key(), target) < 0) {
        child.seek(target);
        moved = true;
      }
    }
    if (moved) {
      heapSize = 0;
      rebuildHeap(false);
    }
    return moved;
  }

  @Override
  public boolean skipOlderBackward(byte[] target, long sequence) {
    if (!backward || heapSize == 0) {
      return false;
    }
    boolean moved = false;
    for (InternalIterator child : children) {
      if (child.isValid() && child.largestSequence() < sequence
          && InternalKeyComparator.INSTANCE.compare(child.key(), target) >= 0) {
        placeBefore(child, target);
        moved = true;
      }
    }
    if (moved) {
      heapSize = 0;
      rebuildHeap(true);
    }
    return moved;
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

  /** Puts {@code child} at its first entry {@code > key}. */
  private static void placeAfter(InternalIterator child, byte[] key) {
    child.seek(key);
    if (child.isValid() && InternalKeyComparator.INSTANCE.compare(child.key(), key) == 0) {
      child.next();
    }
  }

  /** Puts {@code child} at its last entry {@code < key}. */
  private static void placeBefore(InternalIterator child, byte[] key) {
    child.seek(key);
    if (child.isValid()) {
      child.prev();
    } else {
      child.seekToLast();
    }
  }

  /** After the top child moved: drops it if it ran out, and restores the heap order. */
  private void settleTop(int top) {
    if (!children[top].isValid()) {
      heap[0] = heap[--heapSize];
    }
    if (heapSize > 0) {
      siftDown(0);
    }
  }

  private void rebuildHeap(boolean largestFirst) {
    backward = largestFirst;
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

  /**
   * Whether child {@code a} is nearer the top than child {@code b}: moving forward the smaller key
   * (on a tie the lower index), moving backward the larger (on a tie the higher index), so that
   * the two directions visit equal keys in mirrored order.
   */
  private boolean less(int a, int b) {
    int c = InternalKeyComparator.INSTANCE.compare(children[a].key(), children[b].key());
    if (backward) {
      return c > 0 || (c == 0 && a > b);
    }
    return c < 0 || (c == 0 && a < b);
  }

  private void requireValid() {
    if (heapSize == 0) {
      throw new NoSuchElementException("merging iterator is not positioned on an entry");
    }
  }
}

package dev.cairn.cache;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the cache knows about one table file: which of its blocks are cached, and its lookup
 * counters.
 *
 * <h2>The list</h2>
 *
 * The file's cached blocks are a doubly linked list threaded through the blocks themselves
 * ({@link SharedBlock}'s file links), guarded by this object's monitor. A block joins when it is
 * cached and leaves when its removal notice arrives; both are a few pointer writes, with no
 * allocation and no hashing. Every cache miss pays one of each (an insert, and the eviction it
 * causes), which is why this is not a map: a {@code ConcurrentHashMap<Long, SharedBlock>} per
 * file cost about 0.9 us of a miss's 12 (docs/performance.md, "The block cache's share of a
 * miss").
 *
 * <p>Removal unlinks the exact instance the notice names. When an evicted block's notice arrives
 * after the same offset was cached again, both instances are listed for that moment, and the late
 * notice removes only its own: the new block stays listed, so {@code evictFile} still finds it.
 * Questions about one offset ({@code isCached}, {@code isWarm}) go to the cache's map instead,
 * which holds one block per offset.
 */
final class FileBlocks {
  final LongAdder hits = new LongAdder();
  final LongAdder misses = new LongAdder();

  // Guarded by this.
  private SharedBlock head;
  private int count;

  /** Lists {@code block}, just cached at {@code offset}. Requires: not listed in any file. */
  synchronized void added(long offset, SharedBlock block) {
    assert !block.isListed() : "a block is listed in one file, once";
    block.link(this, offset, head);
    if (head != null) {
      head.previousInFile = block;
    }
    head = block;
    count++;
  }

  /** Unlists {@code block}, whose removal notice arrived; does nothing if it is not listed here. */
  synchronized void removed(SharedBlock block) {
    if (block.listedIn != this) {
      return;
    }
    SharedBlock previous = block.previousInFile;
    SharedBlock next = block.nextInFile;
    if (previous == null) {
      head = next;
    } else {
      previous.nextInFile = next;
    }
    if (next != null) {
      next.previousInFile = previous;
    }
    block.unlink();
    count--;
  }

  /** The cached blocks' offsets, as of now (an offset may appear twice; see "The list"). */
  synchronized long[] cachedOffsets() {
    long[] offsets = new long[count];
    int i = 0;
    for (SharedBlock b = head; b != null; b = b.nextInFile) {
      offsets[i++] = b.offsetInFile;
    }
    return offsets;
  }

  synchronized long cachedBlockCount() {
    return count;
  }

  /**
   * The listed blocks whose last read recorded a clock less than {@code capacityBytes} before
   * {@code now}, counted up to {@code atMost}. Runs under the monitor: inserts into this file wait
   * for it, so callers that can stop early pass a small {@code atMost}.
   */
  synchronized long countWarm(long now, long capacityBytes, long atMost) {
    long warm = 0;
    for (SharedBlock b = head; b != null && warm < atMost; b = b.nextInFile) {
      if (now - b.lastReadClock() < capacityBytes) {
        warm++;
      }
    }
    return warm;
  }

  FileCacheStats snapshot(long fileNumber) {
    return new FileCacheStats(fileNumber, hits.sum(), misses.sum(), cachedBlockCount());
  }
}

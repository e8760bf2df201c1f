package dev.cairn.cache;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One block's off-heap bytes shared by the cache and any number of readers, freed when the last
 * reference is released. The cache holds one reference while the block is in the cache; each
 * {@link BlockLease} handed to a reader holds one more.
 *
 * <p>Invariant: once the count reaches zero the memory is freed and the count never rises again.
 * {@link #tryRetain()} enforces this, which is what makes a lookup racing an eviction safe: the
 * reader either gets its reference before the cache drops its own, or it sees a dead block and
 * treats the lookup as a miss. It can never revive freed memory.
 */
final class SharedBlock {
  // Immutable after construction.
  private final MemoryRegion region;
  private final int contentsSize;

  // Thread-safe: the number of live references; 0 means freed.
  private final AtomicInteger refs;

  // Thread-safe: the owning cache's insert clock (bytes inserted so far) at the block's last
  // read, for OffHeapBlockCache#isWarm. Written without a lock: a reader that read the clock
  // earlier may store it after a later one, aging the block by the inserts between the two
  // reads, a sliver of the capacity the warm test allows.
  private volatile long lastReadClock;

  // Guarded by the monitor of listedIn (a FileBlocks): this block's place in its file's list of
  // cached blocks, null when not listed. See FileBlocks, "The list".
  FileBlocks listedIn;
  long offsetInFile;
  SharedBlock previousInFile;
  SharedBlock nextInFile;

  /** Takes ownership of {@code region}; the block starts with {@code initialRefs} references. */
  SharedBlock(MemoryRegion region, int initialRefs) {
    this(region, region.size(), initialRefs);
  }

  /**
   * A block whose contents are the first {@code contentsSize} bytes of {@code region}: a block
   * read from its file straight into cache memory keeps its trailer after them, unread.
   */
  SharedBlock(MemoryRegion region, int contentsSize, int initialRefs) {
    assert initialRefs > 0 : "a block is born referenced";
    assert contentsSize >= 0 && contentsSize <= region.size() : "contents beyond the region";
    this.region = region;
    this.contentsSize = contentsSize;
    this.refs = new AtomicInteger(initialRefs);
  }

  /** Adds a reference unless the block was already freed; returns whether it did. */
  boolean tryRetain() {
    return RefCounts.retainIfLive(refs);
  }

  /** Drops one reference, freeing the memory if it was the last. */
  void release() {
    int left = refs.decrementAndGet();
    assert left >= 0 : "block released more often than retained";
    if (left == 0) {
      region.free();
    }
  }

  /** A new read-only view of the bytes, position 0. Requires: the caller holds a reference. */
  ByteBuffer contents() {
    assert refs.get() > 0 : "reading a freed block";
    ByteBuffer view = region.buffer().asReadOnlyBuffer();
    return contentsSize == region.size() ? view : view.limit(contentsSize);
  }

  /** Bytes of contents (a read block's trailer not counted). */
  int size() {
    return contentsSize;
  }

  /**
   * Records a read at insert clock {@code clock}, unless the last recorded read is less than
   * {@code slack} bytes older: hot blocks are read by many threads, and writing on every read
   * would bounce the field's cache line between them for no gain in precision.
   */
  void markRead(long clock, long slack) {
    if (clock - lastReadClock > slack) {
      lastReadClock = clock;
    }
  }

  /** Joins {@code file}'s list at its head, before {@code next}. Requires: file's monitor held. */
  void link(FileBlocks file, long offset, SharedBlock next) {
    listedIn = file;
    offsetInFile = offset;
    previousInFile = null;
    nextInFile = next;
  }

  /** Leaves the list it is in. Requires: that list's monitor held, neighbours already relinked. */
  void unlink() {
    listedIn = null;
    previousInFile = null;
    nextInFile = null;
  }

  /** Whether the block is in a file's list; for assertions, under that file's monitor. */
  boolean isListed() {
    return listedIn != null;
  }

  long lastReadClock() {
    return lastReadClock;
  }

  int refCount() {
    return refs.get();
  }
}

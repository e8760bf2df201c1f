package dev.cairn.table;

import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * The read-ahead buffers of one engine's table iterators: direct, page-aligned, {@link
 * #BUFFER_BYTES} each, so that a direct read lands in them without a copy. An iterator borrows
 * one when it first reads ahead and gives it back when it closes or leaves the table; up to
 * {@link #KEPT} idle buffers are kept for the next iterator, so that a scan does not allocate
 * direct memory (a zeroing and a cleaner registration each time). A buffer lent and never
 * returned (an iterator not closed) is reclaimed by the GC like any direct buffer. Thread-safe.
 */
public final class ReadaheadBuffers {
  /** Largest read-ahead: RocksDB's default {@code max_auto_readahead_size}. */
  public static final int BUFFER_BYTES = 256 << 10;
  /** Idle buffers kept (4 MiB): two readers' iterators over a few levels, and compactions. */
  static final int KEPT = 16;
  private static final int ADDRESS_ALIGNMENT = 4096;

  private final ArrayBlockingQueue<ByteBuffer> idle = new ArrayBlockingQueue<>(KEPT);

  /** An empty buffer of {@link #BUFFER_BYTES} (position 0, limit = capacity). */
  ByteBuffer borrow() {
    ByteBuffer b = idle.poll();
    if (b == null) {
      b = ByteBuffer.allocateDirect(BUFFER_BYTES + ADDRESS_ALIGNMENT)
          .alignedSlice(ADDRESS_ALIGNMENT)
          .limit(BUFFER_BYTES)
          .slice();
    }
    return b.clear();
  }

  /** Gives back a buffer from {@link #borrow()}; the caller must not touch it afterwards. */
  void giveBack(ByteBuffer b) {
    idle.offer(b); // dropped when KEPT are idle already
  }

  /** Idle buffers kept now (for tests). */
  int idleCount() {
    return idle.size();
  }
}

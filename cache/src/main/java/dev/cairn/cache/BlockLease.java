package dev.cairn.cache;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One reader's reference to a {@link SharedBlock}. A separate object per reader, so that closing
 * twice is detected here instead of silently dropping a reference some other reader still
 * counts on (which would free memory under that reader's feet).
 */
final class BlockLease implements CachedBlock {
  private final SharedBlock block;
  private final AtomicBoolean closed = new AtomicBoolean();

  /** Requires: the caller has already retained {@code block} on behalf of this lease. */
  BlockLease(SharedBlock block) {
    this.block = block;
  }

  @Override
  public ByteBuffer contents() {
    if (closed.get()) {
      // Always checked, not only asserted: reading freed off-heap memory returns garbage or
      // crashes the JVM, far worse than an exception.
      throw new IllegalStateException("contents() of a closed cached block");
    }
    return block.contents();
  }

  @Override
  public int size() {
    return block.size();
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      assert false : "cached block closed twice";
      return;
    }
    block.release();
  }

  /** For tests and invariant checks: the block this lease holds. */
  SharedBlock block() {
    return block;
  }
}

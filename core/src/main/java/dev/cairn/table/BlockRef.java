package dev.cairn.table;

import dev.cairn.cache.CachedBlock;
import dev.cairn.table.block.Block;

/**
 * A data block pinned for use: either a block-cache entry (released on close) or a private
 * on-heap copy (nothing to release).
 */
record BlockRef(Block block, CachedBlock cached) implements AutoCloseable {
  @Override
  public void close() {
    if (cached != null) {
      cached.close();
    }
  }
}

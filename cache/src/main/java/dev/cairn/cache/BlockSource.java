package dev.cairn.cache;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Fills memory the block cache allocates with one block as read from its file, for {@link
 * BlockCache#insertRead}: the read lands in the cache's memory with no heap copy on the way.
 */
@FunctionalInterface
public interface BlockSource {
  /**
   * Reads the block's stored bytes into {@code target} (position 0 to its limit, the bytes asked
   * for), checks them, and returns how many leading bytes are the block's contents: the bytes
   * after them (a trailer) are not cached. Throwing caches nothing.
   */
  int read(ByteBuffer target) throws IOException;
}

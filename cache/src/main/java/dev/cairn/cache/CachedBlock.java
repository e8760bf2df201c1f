package dev.cairn.cache;

import java.nio.ByteBuffer;

/**
 * A retained reference to a block's bytes. The contents stay valid until {@link #close()};
 * closing twice is a bug (asserted).
 */
public interface CachedBlock extends AutoCloseable {
  /** A read-only view of the block's bytes, positioned at 0. Each call returns a new view. */
  ByteBuffer contents();

  int size();

  @Override
  void close();
}

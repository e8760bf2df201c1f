package dev.cairn.cache;

import java.nio.ByteBuffer;

/**
 * A contiguous run of off-heap bytes from a {@link BlockMemory}. Not thread-safe by itself: the
 * owner writes it once, then publishes it (through a concurrent map) to readers who only read.
 */
public interface MemoryRegion {
  /**
   * The region's bytes as a direct buffer with position 0 and limit {@link #size()}. The same
   * instance is returned on every call; callers must use absolute gets and puts, or take a
   * {@code duplicate()}, and never move its position or limit. Invalid after {@link #free()}.
   */
  ByteBuffer buffer();

  int size();

  /** Returns the memory to its allocator. Requires: called exactly once, after the last use. */
  void free();
}

package dev.cairn.cache;

/**
 * Allocates and frees the off-heap memory that holds cached blocks. This is the one place that
 * knows which library provides off-heap memory (netty's pooled allocator today; see
 * docs/decisions/0001-block-memory.md), so it can change — to {@code MemorySegment} on a later
 * JDK — without touching the cache or its callers.
 *
 * <p>Memory here is freed explicitly and exactly once; sharing a region among readers and the
 * cache is the job of the reference count above it ({@code SharedBlock}), not of this interface.
 * Keeping the count out of this layer keeps every implementation trivial and lets the cache use
 * a "retain unless already freed" operation that netty's own counter does not offer without an
 * exception.
 *
 * <p>Implementations are thread-safe: a region may be freed on a thread other than the one that
 * allocated it.
 */
public interface BlockMemory {
  /**
   * Allocates {@code size} bytes of off-heap memory. Their contents are unspecified until
   * written. The caller must {@link MemoryRegion#free() free} the region exactly once.
   *
   * @throws IllegalArgumentException if {@code size} is negative
   * @throws OutOfMemoryError if the direct memory limit is reached
   */
  MemoryRegion allocate(int size);

  /**
   * Bytes now allocated through this instance and not yet freed (the requested sizes, not the
   * allocator's internal rounding or pooled chunks). Zero once every region has been freed,
   * which is what leak checks assert.
   */
  long allocatedBytes();
}

package dev.cairn.cache;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@link BlockMemory} backed by netty's pooled direct buffers. Works on JDK 17 without JVM flags
 * (see docs/decisions/0001-block-memory.md). Pooling matters because blocks are allocated and
 * freed at the rate of cache misses: {@code ByteBuffer.allocateDirect} zeroes every buffer and
 * leaves freeing to the garbage collector, so under churn direct memory is reclaimed only when a
 * GC happens to run.
 *
 * <p>Each instance counts its own allocated bytes, so two caches sharing one netty allocator
 * still report their own {@link #allocatedBytes()}.
 */
public final class NettyBlockMemory implements BlockMemory {
  // Immutable after construction.
  private final PooledByteBufAllocator allocator;

  // Thread-safe counter: requested bytes of regions allocated and not yet freed.
  private final LongAdder allocatedBytes = new LongAdder();

  /** Uses netty's process-wide pooled allocator, shared with any other netty user in the host. */
  public NettyBlockMemory() {
    this(PooledByteBufAllocator.DEFAULT);
  }

  public NettyBlockMemory(PooledByteBufAllocator allocator) {
    this.allocator = allocator;
  }

  @Override
  public MemoryRegion allocate(int size) {
    if (size < 0) {
      throw new IllegalArgumentException("negative block size " + size);
    }
    // maxCapacity == size: a block never grows, and a fixed-size buffer cannot be reallocated
    // behind the NIO view we hand out.
    ByteBuf buf = allocator.directBuffer(size, size);
    allocatedBytes.add(size);
    return new NettyRegion(buf, size);
  }

  @Override
  public long allocatedBytes() {
    return allocatedBytes.sum();
  }

  private final class NettyRegion implements MemoryRegion {
    private final ByteBuf buf;
    private final ByteBuffer view;
    private final int size;

    NettyRegion(ByteBuf buf, int size) {
      this.buf = buf;
      this.size = size;
      // A pooled buffer is a slice of a larger chunk; nioBuffer gives a view of exactly our bytes
      // with its own position and limit, created once so reads allocate only a duplicate.
      this.view = buf.nioBuffer(0, size);
    }

    @Override
    public ByteBuffer buffer() {
      return view;
    }

    @Override
    public int size() {
      return size;
    }

    @Override
    public void free() {
      // ByteBuf.release throws IllegalReferenceCountException on a second free, which is the bug
      // report we want; the counter is adjusted only after a successful release.
      buf.release();
      allocatedBytes.add(-size);
    }
  }
}

package dev.cairn.cache;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
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
 *
 * <h2>Cairn's allocator and its thread caches</h2>
 *
 * Made without an allocator, an instance uses Cairn's own, one per process ({@link
 * CairnAllocator#INSTANCE}), not netty's {@code PooledByteBufAllocator.DEFAULT}. The difference
 * is the thread caches: netty's default (4.1.115, the version pinned here) gives a cache only to
 * netty's own threads, and the threads that read through a block cache are the application's, so
 * every block a miss allocated and every block its eviction freed took an arena lock. With two
 * readers that allocation and free (the evicted block usually the other reader's) cost about
 * 1.5-1.9 us of a 12-us miss, and readers parked on netty's subpage lock (docs/decisions/0015).
 * Cairn's allocator gives every allocating thread a small cache: at most {@value
 * #SMALL_CACHE_SIZE} freed blocks per size class up to 28 KiB and {@value #NORMAL_CACHE_SIZE} per
 * larger class, a few hundred KiB per thread for the block sizes a table uses. A block freed by
 * another thread goes back to its allocating thread's cache. Netty trims a cache every 8,192
 * allocations of its thread, and frees it at a garbage collection after the thread has ended.
 * These bytes are netty's free memory, like free space in its arenas: {@link #allocatedBytes()}
 * and the cache's pinned bytes do not count them. The allocator's own arenas also keep Cairn's
 * blocks out of a host's netty pools (Cassandra's, HBase's).
 */
public final class NettyBlockMemory implements BlockMemory {
  /** Freed blocks a thread keeps per size class up to 28 KiB (netty's "small" classes). */
  static final int SMALL_CACHE_SIZE = 32;
  /** Freed blocks a thread keeps per larger size class. */
  static final int NORMAL_CACHE_SIZE = 8;

  /** Cairn's pooled direct allocator, made on first use (see the class comment). */
  static final class CairnAllocator {
    static final PooledByteBufAllocator INSTANCE = new PooledByteBufAllocator(
        true, // direct buffers
        0, // no heap arenas: blocks are off-heap only
        PooledByteBufAllocator.defaultNumDirectArena(),
        PooledByteBufAllocator.defaultPageSize(),
        PooledByteBufAllocator.defaultMaxOrder(),
        SMALL_CACHE_SIZE,
        NORMAL_CACHE_SIZE,
        true, // a cache for every thread, not only netty's
        0); // no alignment beyond netty's

    private CairnAllocator() {}
  }

  // Immutable after construction.
  private final PooledByteBufAllocator allocator;

  // Thread-safe counter: requested bytes of regions allocated and not yet freed.
  private final LongAdder allocatedBytes = new LongAdder();

  /** Uses Cairn's process-wide pooled allocator (see "Cairn's allocator and its thread caches"). */
  public NettyBlockMemory() {
    this(CairnAllocator.INSTANCE);
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

    private final AtomicBoolean freed = new AtomicBoolean();

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
      // A second free is a bug to report here: the pool recycles a released buffer's object, so
      // releasing it again could free another region's memory rather than throw.
      if (!freed.compareAndSet(false, true)) {
        throw new IllegalStateException("a block's memory freed twice (" + size + " bytes)");
      }
      buf.release();
      allocatedBytes.add(-size);
    }
  }
}

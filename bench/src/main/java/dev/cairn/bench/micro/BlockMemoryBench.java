package dev.cairn.bench.micro;

import dev.cairn.cache.MemoryRegion;
import dev.cairn.cache.NettyBlockMemory;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The block cache's allocation path in isolation: allocate a block, copy {@code blockSize} bytes
 * into it, read one byte back, release it. Evidence for docs/decisions/0001-block-memory.md.
 *
 * <p>{@code liveBlocks} is how many blocks stay allocated while the loop runs (a FIFO ring, as a
 * cache that evicts its oldest blocks): 0 frees each block at once, 4096 keeps 16 MiB live so the
 * allocator cannot serve everything from a thread-local cache of one recently freed buffer.
 *
 * <p>{@link #sharedRing} is the path as a block cache with several readers walks it: run with
 * {@code -t 2 -p liveBlocks=0} ({@code liveBlocks} belongs to the single-thread benchmarks and
 * leaves the shared ring alone, so one value of it is enough). Each thread allocates a block and
 * puts it in a random slot of one ring shared by the threads, freeing the block it displaces,
 * which the other thread allocated about half the time (an eviction frees whichever reader's block
 * is oldest). {@code -p allocator=nettyDefault} runs it on netty's default allocator, which gives
 * ordinary threads no thread cache; {@code cairn} is Cairn's own (docs/decisions/0015).
 *
 * <p>chronicle-bytes is absent: it fails on JDK 17 without a dozen --add-opens/--add-exports
 * flags (docs/decisions/0001-block-memory.md), which is exactly the reason it was not chosen.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class BlockMemoryBench {
  @Param("4096")
  int blockSize;

  @Param({"0", "4096"})
  int liveBlocks;

  private ByteBuffer source;
  private NettyBlockMemory nettyMemory;
  private MemoryRegion[] nettyRing;
  private ByteBuf[] unpooledRing;
  private ByteBuffer[] jdkRing;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    byte[] bytes = new byte[blockSize];
    new SplittableRandom(42).nextBytes(bytes);
    source = ByteBuffer.wrap(bytes);
    nettyMemory = new NettyBlockMemory();
    nettyRing = new MemoryRegion[liveBlocks];
    unpooledRing = new ByteBuf[liveBlocks];
    jdkRing = new ByteBuffer[liveBlocks];
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    for (MemoryRegion r : nettyRing) {
      if (r != null) {
        r.free();
      }
    }
    for (ByteBuf b : unpooledRing) {
      if (b != null) {
        b.release();
      }
    }
    checkNoLeak(nettyMemory);
  }

  /** One ring of live blocks for all threads; see {@link #sharedRing}. */
  @State(Scope.Benchmark)
  public static class SharedRing {
    /** 4096 blocks of 4-5 KiB: about 18 MiB live, beyond the CPU caches as a block cache is. */
    static final int SLOTS = 4096;

    @Param({"cairn", "nettyDefault"})
    String allocator;

    NettyBlockMemory memory;
    AtomicReferenceArray<MemoryRegion> slots;

    @Setup(Level.Trial)
    public void setUp() {
      memory = allocator.equals("cairn")
          ? new NettyBlockMemory()
          : new NettyBlockMemory(PooledByteBufAllocator.DEFAULT);
      slots = new AtomicReferenceArray<>(SLOTS);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      for (int i = 0; i < SLOTS; i++) {
        MemoryRegion r = slots.getAndSet(i, null);
        if (r != null) {
          r.free();
        }
      }
      checkNoLeak(memory);
    }
  }

  /**
   * Allocate a block of a data block's size with its trailer (4,101-5,200 bytes, as 4 KiB blocks
   * of 1 KiB values are), write its first and last byte, and free the block it displaces in the
   * shared ring.
   */
  @Benchmark
  public byte sharedRing(SharedRing ring) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    int size = 4101 + random.nextInt(1100);
    MemoryRegion region = ring.memory.allocate(size);
    region.buffer().put(0, (byte) 1).put(size - 1, (byte) 2);
    byte last = region.buffer().get(size - 1); // once in the ring, another thread may free it
    MemoryRegion displaced = ring.slots.getAndSet(random.nextInt(SharedRing.SLOTS), region);
    if (displaced != null) {
      displaced.free();
    }
    return last;
  }

  static void checkNoLeak(NettyBlockMemory memory) {
    if (memory.allocatedBytes() != 0) {
      throw new IllegalStateException("benchmark leaked " + memory.allocatedBytes());
    }
  }

  private int nextSlot() {
    int slot = next;
    next = next + 1 == liveBlocks ? 0 : next + 1;
    return slot;
  }

  /** Cairn's block memory: netty's pooled direct allocator behind {@code BlockMemory}. */
  @Benchmark
  public byte nettyPooledDirect() {
    MemoryRegion region = nettyMemory.allocate(blockSize);
    region.buffer().put(0, source, 0, blockSize);
    byte b = region.buffer().get(blockSize - 1);
    if (liveBlocks == 0) {
      region.free();
    } else {
      int slot = nextSlot();
      if (nettyRing[slot] != null) {
        nettyRing[slot].free();
      }
      nettyRing[slot] = region;
    }
    return b;
  }

  /**
   * Netty without pooling. Without JVM flags netty cannot reach DirectByteBuffer's private
   * constructor, so this is {@code allocateDirect} plus an explicit free through the cleaner.
   */
  @Benchmark
  public byte nettyUnpooledDirect() {
    ByteBuf buf = UnpooledByteBufAllocator.DEFAULT.directBuffer(blockSize, blockSize);
    buf.setBytes(0, source.duplicate());
    byte b = buf.getByte(blockSize - 1);
    if (liveBlocks == 0) {
      buf.release();
    } else {
      int slot = nextSlot();
      if (unpooledRing[slot] != null) {
        unpooledRing[slot].release();
      }
      unpooledRing[slot] = buf;
    }
    return b;
  }

  /**
   * The JDK alone: {@code allocateDirect} zeroes the memory and cannot free it explicitly; the
   * garbage collector frees it, and when the direct-memory limit is hit the allocating thread
   * calls {@code System.gc()} and waits.
   */
  @Benchmark
  public byte jdkAllocateDirect() {
    ByteBuffer buf = ByteBuffer.allocateDirect(blockSize);
    buf.put(0, source, 0, blockSize);
    byte b = buf.get(blockSize - 1);
    if (liveBlocks > 0) {
      jdkRing[nextSlot()] = buf;
    }
    return b;
  }
}

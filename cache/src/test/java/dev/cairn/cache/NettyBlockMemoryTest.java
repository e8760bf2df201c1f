package dev.cairn.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.PooledByteBufAllocator;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class NettyBlockMemoryTest {
  private final NettyBlockMemory memory = new NettyBlockMemory();

  @Test
  void allocatedRegionHoldsWhatWasWrittenAndCountsItsBytes() {
    byte[] data = Blocks.bytes(1, 2, 4096);
    MemoryRegion region = memory.allocate(4096);
    assertEquals(4096, memory.allocatedBytes());
    ByteBuffer buf = region.buffer();
    assertTrue(buf.isDirect(), "block memory must be off-heap");
    assertEquals(0, buf.position());
    assertEquals(4096, buf.limit());
    buf.put(0, data);
    byte[] back = new byte[4096];
    region.buffer().get(0, back);
    assertArrayEquals(data, back);
    region.free();
    assertEquals(0, memory.allocatedBytes());
  }

  @Test
  void regionsAreIndependent() {
    MemoryRegion a = memory.allocate(100);
    MemoryRegion b = memory.allocate(100);
    a.buffer().put(0, Blocks.bytes(1, 1, 100));
    b.buffer().put(0, Blocks.bytes(2, 2, 100));
    byte[] back = new byte[100];
    a.buffer().get(0, back);
    assertArrayEquals(Blocks.bytes(1, 1, 100), back);
    assertEquals(200, memory.allocatedBytes());
    a.free();
    b.free();
    assertEquals(0, memory.allocatedBytes());
  }

  @Test
  void emptyRegion() {
    MemoryRegion region = memory.allocate(0);
    assertEquals(0, region.size());
    assertEquals(0, region.buffer().remaining());
    region.free();
    assertEquals(0, memory.allocatedBytes());
  }

  @Test
  void negativeSizeIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> memory.allocate(-1));
  }

  @Test
  void secondFreeIsReportedAndLeavesTheCountAlone() {
    MemoryRegion region = memory.allocate(64);
    region.free();
    assertThrows(IllegalStateException.class, region::free);
    assertEquals(0, memory.allocatedBytes());
  }

  /** The pool recycles a released buffer's object: a stale second free must not free the next region. */
  @Test
  void aSecondFreeAfterTheMemoryWasReusedLeavesTheNewRegionAlone() {
    MemoryRegion a = memory.allocate(4096);
    a.free();
    MemoryRegion b = memory.allocate(4096);
    assertThrows(IllegalStateException.class, a::free);
    b.buffer().put(0, Blocks.bytes(3, 3, 4096));
    byte[] back = new byte[4096];
    b.buffer().get(0, back);
    assertArrayEquals(Blocks.bytes(3, 3, 4096), back);
    assertEquals(4096, memory.allocatedBytes(), "b is still allocated");
    b.free();
    assertEquals(0, memory.allocatedBytes());
  }

  @Test
  void aBlockFreedOnAnOrdinaryThreadStaysInThatThreadsCache() throws Exception {
    // An application thread, not one of netty's: netty's default allocator gives it no cache, so
    // its free would go back to an arena under the arena's lock.
    PooledByteBufAllocator cairns = NettyBlockMemory.CairnAllocator.INSTANCE;
    long[] arenaFrees = new long[2];
    Thread reader = new Thread(() -> {
      memory.allocate(4101).free(); // the thread's first allocation makes its cache
      arenaFrees[0] = arenaDeallocations(cairns);
      memory.allocate(4101).free();
      // Read before the thread ends: netty frees an ended thread's cache into the arenas.
      arenaFrees[1] = arenaDeallocations(cairns);
    });
    reader.start();
    reader.join();
    assertEquals(arenaFrees[0], arenaFrees[1], "the free must stay in the thread's cache");
    assertEquals(NettyBlockMemory.SMALL_CACHE_SIZE, cairns.metric().smallCacheSize());
    assertEquals(NettyBlockMemory.NORMAL_CACHE_SIZE, cairns.metric().normalCacheSize());
  }

  private static long arenaDeallocations(PooledByteBufAllocator allocator) {
    return allocator.metric().directArenas().stream().mapToLong(a -> a.numDeallocations()).sum();
  }
}

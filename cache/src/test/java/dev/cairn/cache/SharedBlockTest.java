package dev.cairn.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SharedBlockTest {
  private final NettyBlockMemory memory = new NettyBlockMemory();

  @Test
  void memoryIsFreedByTheLastRelease() {
    SharedBlock block = new SharedBlock(memory.allocate(128), 1);
    assertTrue(block.tryRetain());
    assertEquals(2, block.refCount());
    block.release();
    assertEquals(128, memory.allocatedBytes(), "one reference left, memory must stay");
    block.release();
    assertEquals(0, memory.allocatedBytes());
  }

  @Test
  void freedBlockCannotBeRetainedAgain() {
    SharedBlock block = new SharedBlock(memory.allocate(16), 1);
    block.release();
    assertFalse(block.tryRetain(), "retaining a freed block would revive freed memory");
    assertEquals(0, block.refCount());
  }

  @Test
  void contentsAreReadOnlyViewsAtPositionZero() {
    MemoryRegion region = memory.allocate(8);
    region.buffer().put(0, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
    SharedBlock block = new SharedBlock(region, 1);
    var view = block.contents();
    assertTrue(view.isReadOnly());
    view.get();
    assertEquals(0, block.contents().position(), "each view is independent");
    assertThrows(java.nio.ReadOnlyBufferException.class, () -> block.contents().put(0, (byte) 9));
    block.release();
  }
}

package dev.cairn.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link OffHeapBlockCache#insertRead}: a block read straight into the cache's memory. */
class OffHeapBlockCacheReadTest {
  private static final int BLOCK = 4096;
  private static final int TRAILER = 5;

  private final NettyBlockMemory memory = new NettyBlockMemory();
  private final OffHeapBlockCache cache = new OffHeapBlockCache(1 << 20, memory);

  @AfterEach
  void noOffHeapBytesLeftBehind() {
    cache.close();
    assertEquals(0, memory.allocatedBytes(), "off-heap bytes leaked by the test");
  }

  /** A source that writes {@code stored} (contents then a trailer) and names the contents. */
  private static BlockSource storing(byte[] stored, int contents) {
    return storing(stored, contents, true);
  }

  private static BlockSource storing(byte[] stored, int contents, boolean intoCacheMemory) {
    return target -> {
      assertEquals(0, target.position());
      assertEquals(stored.length, target.limit(), "the source is offered exactly the stored bytes");
      assertEquals(intoCacheMemory, target.isDirect(), "the read lands in the cache's off-heap memory");
      target.put(stored);
      return contents;
    };
  }

  private static byte[] stored(long file, long offset) {
    byte[] contents = Blocks.bytes(file, offset, BLOCK);
    byte[] out = Arrays.copyOf(contents, BLOCK + TRAILER);
    Arrays.fill(out, BLOCK, out.length, (byte) 0x7f); // a trailer the block must not show
    return out;
  }

  @Test
  void theReadBlockIsCachedWithoutItsTrailer() throws IOException {
    byte[] stored = stored(3, 8192);
    try (CachedBlock read = cache.insertRead(3, 8192, stored.length, storing(stored, BLOCK))) {
      assertEquals(BLOCK, read.size());
      assertArrayEquals(Arrays.copyOf(stored, BLOCK), Blocks.read(read));
    }
    try (CachedBlock found = cache.lookup(3, 8192)) {
      assertNotNull(found);
      assertEquals(BLOCK, found.size());
      assertEquals(BLOCK, found.contents().remaining());
      assertArrayEquals(Arrays.copyOf(stored, BLOCK), Blocks.read(found));
    }
    CacheStats stats = cache.stats();
    assertEquals(1, stats.inserts());
    assertEquals(BLOCK, stats.usedBytes(), "the cache weighs the contents");
    assertTrue(cache.isCached(3, 8192));
    assertTrue(cache.isWarm(3, 8192), "a block just read is warm");
  }

  @Test
  void aFailingReadCachesNothingAndFreesItsMemory() {
    IOException failure = new IOException("device gone");
    IOException thrown = assertThrows(IOException.class,
        () -> cache.insertRead(1, 0, BLOCK + TRAILER, target -> {
          target.put(new byte[100]);
          throw failure;
        }));
    assertSame(failure, thrown);
    assertNull(cache.lookup(1, 0));
    assertFalse(cache.isCached(1, 0));
    assertEquals(0, memory.allocatedBytes());
    assertEquals(0, cache.stats().inserts());
  }

  @Test
  void contentsLongerThanTheReadAreRefused() {
    byte[] stored = stored(1, 0);
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> cache.insertRead(1, 0, stored.length, storing(stored, stored.length + 1)));
    assertTrue(e.getMessage().contains(String.valueOf(stored.length + 1)), e.getMessage());
    assertFalse(cache.isCached(1, 0));
    assertEquals(0, memory.allocatedBytes());
  }

  @Test
  void aBlockCachedMeanwhileIsSharedAndTheReadDropped() throws IOException {
    byte[] first = Blocks.bytes(2, 0, BLOCK);
    cache.insert(2, 0, ByteBuffer.wrap(first)).close();
    long before = memory.allocatedBytes();
    byte[] other = stored(9, 9); // different bytes under the same key: the cached block wins
    try (CachedBlock read = cache.insertRead(2, 0, other.length, storing(other, BLOCK))) {
      assertArrayEquals(first, Blocks.read(read));
    }
    assertEquals(before, memory.allocatedBytes(), "the dropped read's memory is freed");
    assertEquals(1, cache.stats().inserts());
  }

  @Test
  void aClosedCacheGivesTheCallerItsOwnBlock() throws IOException {
    cache.close();
    byte[] stored = stored(4, 0);
    // Nothing is cached any more, so the read lands in a heap buffer and the caller owns a copy.
    try (CachedBlock read = cache.insertRead(4, 0, stored.length, storing(stored, BLOCK, false))) {
      assertArrayEquals(Arrays.copyOf(stored, BLOCK), Blocks.read(read));
    }
    assertEquals(0, memory.allocatedBytes());
  }
}

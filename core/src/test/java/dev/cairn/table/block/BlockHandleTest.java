package dev.cairn.table.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.CorruptionException;
import dev.cairn.util.ByteSink;
import dev.cairn.util.ByteSource;
import org.junit.jupiter.api.Test;

class BlockHandleTest {

  private static BlockHandle decode(long offset, long size) {
    byte[] encoded = new ByteSink(BlockHandle.MAX_ENCODED_LENGTH).putVarint64(offset).putVarint64(size).toByteArray();
    return BlockHandle.decode(new ByteSource(encoded, "000007.sst", 4096));
  }

  @Test
  void aHandleUpToTheLargestReadableBlockDecodes() {
    assertEquals(new BlockHandle(123, BlockHandle.MAX_SIZE), decode(123, BlockHandle.MAX_SIZE));
    assertTrue(BlockHandle.plausible(0, 0));
  }

  @Test
  void aSizeNoArrayCanHoldIsCorruptionNamingTheFile() {
    CorruptionException e = assertThrows(CorruptionException.class, () -> decode(123, BlockHandle.MAX_SIZE + 1));
    assertTrue(e.getMessage().contains("000007.sst"), e.getMessage());
    assertTrue(e.getMessage().contains("bad block handle 123+" + (BlockHandle.MAX_SIZE + 1)), e.getMessage());
    assertFalse(BlockHandle.plausible(-1, 10));
    assertFalse(BlockHandle.plausible(10, -1));
  }

  @Test
  void endsByHoldsNearTheTopOfTheRangeWithoutOverflow() {
    assertTrue(new BlockHandle(0, 10).endsBy(15));
    assertFalse(new BlockHandle(0, 10).endsBy(14));
    assertFalse(new BlockHandle(Long.MAX_VALUE - 3, 10).endsBy(100));
  }
}

package dev.cairn.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.CorruptionException;
import dev.cairn.fs.fake.InMemoryFile;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockTrailer;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** A handle read from a table must end before the footer that names it, whatever its numbers. */
class BlockHandleBoundsTest {
  @Test
  void aHandleEndsByItsLimitWithoutOverflow() {
    assertTrue(new BlockHandle(0, 100).endsBy(100 + BlockTrailer.SIZE));
    assertFalse(new BlockHandle(0, 100).endsBy(100 + BlockTrailer.SIZE - 1));
    assertFalse(new BlockHandle(Long.MAX_VALUE - 2, 10).endsBy(1000), "an offset near 2^63 must not wrap and pass");
  }

  @Test
  void aRangeDeletionHandlePastTheFooterIsCorruptionBeforeAnyRead() throws IOException {
    InMemoryFile file = new InMemoryFile();
    file.append(new byte[2000]);
    for (BlockHandle bad : new BlockHandle[] {new BlockHandle(0, 1L << 40), new BlockHandle(900, 200),
        new BlockHandle(Long.MAX_VALUE - 2, 10)}) {
      CorruptionException e = assertThrows(CorruptionException.class,
          () -> RangeDeletionBlock.read(file, "000012.sst", bad, 1000, 700), bad.toString());
      assertEquals("000012.sst", e.file());
      assertEquals(700, e.offset(), "named at the properties that hold the handle");
    }
  }
}

package dev.cairn.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cairn.CorruptionException;
import dev.cairn.table.block.Block;
import dev.cairn.table.block.BlockIterator;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Fuzzes the key/value block decoder below its checksum: fuzzed bytes are taken as verified block
 * contents (what a CRC collision or a writer bug would hand it). Iterating, reading values and
 * seeking may only raise {@link CorruptionException}. Seeds: {@code BlockFuzzTestInputs/block/}.
 */
class BlockFuzzTest {
  private static final Comparator<byte[]> BYTEWISE = Arrays::compareUnsigned;

  @FuzzTest
  void block(byte[] data) {
    Block block;
    try {
      block = new Block(ByteBuffer.wrap(data), "fuzz.cairn", 0);
    } catch (CorruptionException expected) {
      return;
    }
    List<byte[]> keys = new ArrayList<>();
    try (BlockIterator it = block.iterator(BYTEWISE)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        keys.add(it.key());
        it.value();
        assertTrue(keys.size() <= data.length, "more entries than bytes: the iterator loops");
      }
    } catch (CorruptionException expected) {
      // Seeks below still run over whatever decoded before the damage.
    }
    seekEach(block, keys);
    seekEach(block, List.of(new byte[0], new byte[] {(byte) 0xff, (byte) 0xff}));
    try (BlockIterator it = block.internalKeyIterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        it.value();
      }
    } catch (CorruptionException expected) {
      // The fuzzer's keys are rarely internal keys.
    }
    for (byte[] k : keys) {
      try (BlockIterator it = block.internalKeyIterator()) {
        it.seek(k.length >= 8 ? k : Arrays.copyOf(k, 8));
      } catch (CorruptionException expected) {
        // Damage met during the seek.
      }
    }
  }

  private static void seekEach(Block block, List<byte[]> targets) {
    for (byte[] target : targets) {
      try (BlockIterator it = block.iterator(BYTEWISE)) {
        it.seek(target);
        if (it.isValid()) {
          assertTrue(BYTEWISE.compare(it.key(), target) >= 0, "seek landed before its target");
        }
      } catch (CorruptionException expected) {
        // Damage met during the seek.
      }
    }
  }
}

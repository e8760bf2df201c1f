package dev.cairn.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.CorruptionException;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.UserKeys;
import dev.cairn.key.ValueType;
import dev.cairn.table.block.Block;
import dev.cairn.table.block.BlockBuilder;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockIterator;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BlockTest {
  private static final long SEED = Long.getLong("cairn.seed", 20240611L);

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 16})
  void roundTripAndSeekEverywhere(int restartInterval) {
    Random rnd = new Random(SEED + restartInterval);
    TreeMap<byte[], byte[]> model = new TreeMap<>(UserKeys.COMPARATOR);
    for (int i = 0; i < 300; i++) {
      byte[] k = new byte[1 + rnd.nextInt(12)];
      for (int j = 0; j < k.length; j++) {
        k[j] = (byte) ("abc\u00ff".charAt(rnd.nextInt(4))); // shared prefixes are likely
      }
      byte[] v = new byte[rnd.nextInt(20)];
      rnd.nextBytes(v);
      model.put(k, v);
    }
    BlockBuilder b = new BlockBuilder(restartInterval, UserKeys.COMPARATOR, 4096);
    model.forEach(b::add);
    byte[] contents = b.finish();
    assertEquals(contents.length, b.currentSizeEstimate(), "seed " + SEED);
    Block block = new Block(ByteBuffer.wrap(contents), "t", 0);

    List<byte[]> keys = new ArrayList<>(model.keySet());
    try (BlockIterator it = block.iterator(UserKeys.COMPARATOR)) {
      int i = 0;
      for (it.seekToFirst(); it.isValid(); it.next(), i++) {
        assertArrayEquals(keys.get(i), it.key(), "seed " + SEED);
        assertArrayEquals(model.get(keys.get(i)), it.value(), "seed " + SEED);
      }
      assertEquals(keys.size(), i);

      for (byte[] k : keys) {
        it.seek(k);
        assertTrue(it.isValid());
        assertArrayEquals(k, it.key(), "seek to present key, seed " + SEED);
      }
      // Between keys: the key plus a 0 byte sorts right after it; the answer is the next key.
      for (byte[] k : keys) {
        byte[] between = java.util.Arrays.copyOf(k, k.length + 1);
        Map.Entry<byte[], byte[]> expected = model.higherEntry(between);
        it.seek(between);
        if (expected == null) {
          assertFalse(it.isValid(), "seed " + SEED);
        } else {
          assertTrue(it.isValid());
          assertArrayEquals(expected.getKey(), it.key(), "seek between keys, seed " + SEED);
        }
      }
      it.seek(new byte[0]);
      assertArrayEquals(keys.get(0), it.key());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 16})
  void emptyBlock(int restartInterval) {
    BlockBuilder b = new BlockBuilder(restartInterval, UserKeys.COMPARATOR, 64);
    Block block = new Block(ByteBuffer.wrap(b.finish()), "t", 0);
    BlockIterator it = block.iterator(UserKeys.COMPARATOR);
    it.seekToFirst();
    assertFalse(it.isValid());
    it.seek(new byte[] {1});
    assertFalse(it.isValid());
    it.seekToLast();
    assertFalse(it.isValid());
    it.seekForPrev(new byte[] {1});
    assertFalse(it.isValid());
  }

  /**
   * Backward through a block: prev() decodes forward from the restart point before the entry, so
   * every restart interval, and entries sharing long prefixes, are walked both ways.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 16})
  void walksBothWaysWithEveryRestartInterval(int restartInterval) {
    Random rnd = new Random(SEED + restartInterval);
    for (int round = 0; round < 20; round++) {
      TreeMap<byte[], byte[]> model = new TreeMap<>(UserKeys.COMPARATOR);
      int n = rnd.nextInt(120);
      for (int i = 0; i < n; i++) {
        model.put(randomKey(rnd), new byte[] {(byte) i, (byte) rnd.nextInt()});
      }
      BlockBuilder b = new BlockBuilder(restartInterval, UserKeys.COMPARATOR, 4096);
      model.forEach(b::add);
      Block block = new Block(ByteBuffer.wrap(b.finish()), "t", 0);
      try (BlockIterator it = block.iterator(UserKeys.COMPARATOR)) {
        dev.cairn.iter.IteratorWalk.internal(it, model, UserKeys.COMPARATOR, () -> randomKey(rnd), rnd, 500,
            "restart interval " + restartInterval + ", " + n + " entries, seed " + SEED);
      }
    }
  }

  private static byte[] randomKey(Random rnd) {
    byte[] k = new byte[1 + rnd.nextInt(10)];
    for (int j = 0; j < k.length; j++) {
      k[j] = (byte) ("abc\u00ff".charAt(rnd.nextInt(4))); // shared prefixes are likely
    }
    return k;
  }

  @Test
  void aRangeDeletionAmongPointEntriesIsCorruptionNotADeletion() {
    BlockBuilder b = new BlockBuilder(1, InternalKeyComparator.INSTANCE, 4096);
    b.add(InternalKey.encode(new byte[] {'a'}, 7, ValueType.VALUE), new byte[] {1});
    b.add(InternalKey.encode(new byte[] {'b'}, 6, ValueType.RANGE_DELETION), new byte[] {'c'});
    Block block = new Block(ByteBuffer.wrap(b.finish()), "000009.sst", 8192);
    try (BlockIterator it = block.internalKeyIterator()) {
      it.seekToFirst();
      assertTrue(it.isValid());
      CorruptionException e = assertThrows(CorruptionException.class, it::next);
      assertEquals("000009.sst", e.file());
      assertTrue(e.getMessage().contains("range deletion among point entries"), e.getMessage());
    }
  }

  /** Contents of 12 bytes whose restart count (the last four) claims more restarts than fit. */
  static ByteBuffer badRestartCount() {
    ByteBuffer b = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(8, 1000);
    return b;
  }

  @Test
  void damageInABlockStoredAsBuiltIsReportedAtItsOwnByteInTheFile() {
    CorruptionException e = assertThrows(CorruptionException.class,
        () -> Block.of(badRestartCount(), "000011.sst", new BlockHandle(4096, 12)));
    assertEquals("000011.sst", e.file());
    assertEquals(4096 + 8, e.offset(), e.getMessage());
    assertFalse(e.getMessage().contains("decompressed"), e.getMessage());
  }

  @Test
  void damageInADecompressedBlockIsReportedAtTheBlocksOffsetWithItsPositionInTheContents() {
    // Stored in 7 bytes, 12 as built: the contents were decompressed, and byte 8 of them is no
    // byte of the file, so the offset is the block's and the reason says where inside it.
    CorruptionException e = assertThrows(CorruptionException.class,
        () -> Block.of(badRestartCount(), "000011.sst", new BlockHandle(4096, 7)));
    assertEquals("000011.sst", e.file());
    assertEquals(4096, e.offset(), e.getMessage());
    assertTrue(e.reason().contains("at byte 8 of the block's 12 decompressed bytes"), e.getMessage());
  }
}

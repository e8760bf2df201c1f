package dev.cairn.memtable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.ValueType;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The arena's own edges, against a {@code TreeMap} in internal-key order: nodes across many 1 MiB
 * chunks, keys too large for an ordinary chunk (a chunk of their own), values across the value
 * arena's growing chunks and values with a chunk of their own, many versions of one user key, and
 * the accessors. {@code MemTableTest} and {@code MemTableConcurrencyTest} cover the
 * memtable's contract over it.
 */
class ArenaSkipListTest {

  @Test
  void manyChunksOfNodesKeepInternalKeyOrder() {
    SplittableRandom random = new SplittableRandom(20);
    ArenaSkipList list = new ArenaSkipList();
    TreeMap<byte[], byte[]> model = new TreeMap<>(InternalKeyComparator.INSTANCE);
    // About 60 bytes of node per entry: 60,000 entries fill several chunks.
    for (int i = 1; i <= 60_000; i++) {
      byte[] userKey = new byte[1 + random.nextInt(40)];
      random.nextBytes(userKey);
      if (random.nextInt(10) == 0 && !model.isEmpty()) {
        userKey = InternalKey.userKey(model.firstKey()); // more versions of an existing user key
      }
      byte[] key = InternalKey.encode(userKey, i, random.nextBoolean() ? ValueType.VALUE : ValueType.DELETION);
      byte[] value = new byte[random.nextInt(8)];
      list.insert(key, value);
      model.put(key, value);
    }
    assertSameContents(model, list);
    for (int probe = 0; probe < 2_000; probe++) {
      byte[] userKey = new byte[1 + random.nextInt(40)];
      random.nextBytes(userKey);
      byte[] target = InternalKey.seekKey(userKey, InternalKey.MAX_SEQUENCE);
      Map.Entry<byte[], byte[]> expected = model.ceilingEntry(target);
      int node = list.seek(target);
      if (expected == null) {
        assertEquals(0, node);
      } else {
        assertArrayEquals(expected.getKey(), list.key(node));
        assertArrayEquals(expected.getValue(), list.value(node));
      }
    }
  }

  @Test
  void keysLargerThanAChunkQuarterGetTheirOwnChunk() {
    ArenaSkipList list = new ArenaSkipList();
    TreeMap<byte[], byte[]> model = new TreeMap<>(InternalKeyComparator.INSTANCE);
    int[] sizes = {10, 300_000, 20, 2_000_000, 262_000, 5};
    for (int i = 0; i < sizes.length; i++) {
      byte[] userKey = new byte[sizes[i]];
      userKey[0] = (byte) ('a' + (i * 7) % sizes.length);
      userKey[userKey.length - 1] = (byte) i;
      byte[] key = InternalKey.encode(userKey, 100 + i, ValueType.VALUE);
      byte[] value = {(byte) i};
      list.insert(key, value);
      model.put(key, value);
    }
    assertSameContents(model, list);
  }

  @Test
  void valuesAreCopiedAcrossGrowingChunksAndLargeOnesGetTheirOwn() {
    SplittableRandom random = new SplittableRandom(21);
    ArenaSkipList list = new ArenaSkipList();
    TreeMap<byte[], byte[]> model = new TreeMap<>(InternalKeyComparator.INSTANCE);
    // Sizes around each edge: empty; one byte past the first chunk (the next, doubled, holds
    // it); a quarter of the largest shared chunk, the largest value a chunk shares (the next
    // chunk doubles until it holds it); one byte past that and 3,000,000 bytes (each a chunk of
    // its own); and many values of up to 2 KiB, filling chunks up to the largest and past it.
    int quarter = ArenaSkipList.VALUE_CHUNK_BYTES / 4;
    int[] edges = {0, 1, ArenaSkipList.FIRST_VALUE_CHUNK_BYTES + 1, quarter, quarter + 1, 3_000_000, 0};
    int sequence = 1;
    for (int size : edges) {
      sequence = insertRandom(list, model, random, size, sequence);
    }
    for (int i = 0; i < 12_000; i++) {
      sequence = insertRandom(list, model, random, 1 + random.nextInt(2_048), sequence);
    }
    assertSameContents(model, list);
  }

  @Test
  void aValueChangedByItsCallerAfterInsertIsStoredAsItWas() {
    ArenaSkipList list = new ArenaSkipList();
    byte[] value = {1, 2, 3};
    list.insert(InternalKey.encode(new byte[] {'k'}, 1, ValueType.VALUE), value);
    value[0] = 9;
    int node = list.first();
    assertArrayEquals(new byte[] {1, 2, 3}, list.value(node));
    assertNotSame(list.value(node), list.value(node), "each read is its own copy");
  }

  private static int insertRandom(ArenaSkipList list, TreeMap<byte[], byte[]> model, SplittableRandom random,
      int valueBytes, int sequence) {
    byte[] userKey = new byte[1 + random.nextInt(16)];
    random.nextBytes(userKey);
    byte[] key = InternalKey.encode(userKey, sequence, ValueType.VALUE);
    byte[] value = new byte[valueBytes];
    random.nextBytes(value);
    list.insert(key, value);
    model.put(key, value.clone());
    return sequence + 1;
  }

  @Test
  void versionsOfOneUserKeyRunNewestFirstAndTheTrailerReadsBack() {
    ArenaSkipList list = new ArenaSkipList();
    byte[] userKey = {'k'};
    for (long sequence = 1; sequence <= 500; sequence++) {
      list.insert(InternalKey.encode(userKey, sequence, sequence % 3 == 0 ? ValueType.DELETION : ValueType.VALUE),
          new byte[0]);
    }
    int node = list.seek(InternalKey.seekKey(userKey, 250));
    assertEquals(InternalKey.packTrailer(250, ValueType.VALUE), list.trailer(node));
    assertTrue(list.sameUserKey(node, InternalKey.seekKey(userKey, 1)));
    long previous = Long.MAX_VALUE;
    int count = 0;
    for (int n = list.first(); n != 0; n = list.next(n)) {
      long sequence = list.trailer(n) >>> 8;
      assertTrue(sequence < previous, "newest first");
      previous = sequence;
      count++;
    }
    assertEquals(500, count);
  }

  private static void assertSameContents(TreeMap<byte[], byte[]> model, ArenaSkipList list) {
    int node = list.first();
    for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
      assertTrue(node != 0, "list ends early");
      assertArrayEquals(e.getKey(), list.key(node));
      assertArrayEquals(e.getValue(), list.value(node));
      assertEquals(0, list.compare(node, e.getKey()));
      node = list.next(node);
    }
    assertEquals(0, node, "list has more entries than the model");
  }
}

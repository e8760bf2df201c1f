package dev.cairn.memtable;

import dev.cairn.wal.WriteBatchRecords;
import static dev.cairn.iter.TestKeys.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.WriteBatch;
import dev.cairn.iter.InternalIterator;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.LookupResult;
import dev.cairn.key.ValueType;
import dev.cairn.testkit.Seeds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MemTableTest {
  /** One add, as the reference model remembers it. */
  private record Op(byte[] userKey, long sequence, ValueType type, byte[] value) {
    byte[] internalKey() {
      return InternalKey.encode(userKey, sequence, type);
    }
  }

  @Test
  void emptyMemTable() {
    MemTable m = new MemTable();
    assertTrue(m.isEmpty());
    assertEquals(0, m.entries());
    assertEquals(0, m.approximateBytes());
    assertEquals(Long.MAX_VALUE, m.smallestSequence());
    assertEquals(-1, m.largestSequence());
    assertEquals(LookupResult.Kind.NOT_PRESENT, m.get(bytes("a"), Long.MAX_VALUE).kind());
    try (InternalIterator it = m.iterator()) {
      it.seekToFirst();
      assertFalse(it.isValid());
    }
  }

  @Test
  void getSeesNewestEntryAtOrBelowSnapshot() {
    MemTable m = new MemTable();
    m.add(5, ValueType.VALUE, bytes("k"), bytes("v5"));
    m.add(7, ValueType.DELETION, bytes("k"), new byte[0]);
    m.add(9, ValueType.VALUE, bytes("k"), bytes("v9"));
    m.add(6, ValueType.VALUE, bytes("j"), bytes("j6"));

    assertEquals(LookupResult.Kind.NOT_PRESENT, m.get(bytes("k"), 4).kind());
    assertArrayEquals(bytes("v5"), m.get(bytes("k"), 5).value());
    assertArrayEquals(bytes("v5"), m.get(bytes("k"), 6).value());
    assertEquals(LookupResult.Kind.DELETED, m.get(bytes("k"), 7).kind());
    assertEquals(LookupResult.Kind.DELETED, m.get(bytes("k"), 8).kind());
    assertArrayEquals(bytes("v9"), m.get(bytes("k"), 9).value());
    assertArrayEquals(bytes("v9"), m.get(bytes("k"), Long.MAX_VALUE).value());
    // A neighbouring key with a visible entry must not leak into the lookup.
    assertEquals(LookupResult.Kind.NOT_PRESENT, m.get(bytes("ja"), 100).kind());
    assertEquals(LookupResult.Kind.NOT_PRESENT, m.get(bytes("j"), 5).kind());

    assertEquals(4, m.entries());
    assertEquals(5, m.smallestSequence());
    assertEquals(9, m.largestSequence());
    long expectedBytes = 4L * (1 + InternalKey.TRAILER_BYTES + MemTable.ENTRY_OVERHEAD_BYTES)
        + 2 + 0 + 2 + 2;
    assertEquals(expectedBytes, m.approximateBytes());
  }

  @Test
  void getReturnsACopyTheCallerMayModify() {
    MemTable m = new MemTable();
    m.add(1, ValueType.VALUE, bytes("k"), bytes("value"));
    byte[] first = m.get(bytes("k"), 1).value();
    first[0] = 'X';
    assertArrayEquals(bytes("value"), m.get(bytes("k"), 1).value());
    assertNotSame(first, m.get(bytes("k"), 1).value());
  }

  @Test
  void inserterAppliesADecodedWriteBatch() {
    MemTable m = new MemTable();
    WriteBatch batch = new WriteBatch().put(bytes("a"), bytes("1")).delete(bytes("b"));
    WriteBatchRecords.decode(WriteBatchRecords.encode(batch, 10), "test", 0, m.inserter());
    assertArrayEquals(bytes("1"), m.get(bytes("a"), 10).value());
    assertEquals(LookupResult.Kind.DELETED, m.get(bytes("b"), 11).kind());
    assertEquals(LookupResult.Kind.NOT_PRESENT, m.get(bytes("b"), 10).kind());
    assertEquals(10, m.smallestSequence());
    assertEquals(11, m.largestSequence());
  }

  @Test
  void bytesToAddBoundsWhatABatchAddsWhateverItHolds() throws Exception {
    Seeds.run("memtable bytes bound", random -> {
      MemTable m = new MemTable();
      long sequence = 1;
      for (int round = 0; round < 50; round++) {
        WriteBatch batch = new WriteBatch();
        int operations = 1 + random.nextInt(20);
        for (int i = 0; i < operations; i++) {
          byte[] key = new byte[1 + random.nextInt(40)];
          random.nextBytes(key);
          switch (random.nextInt(4)) {
            case 0 -> batch.put(key, new byte[random.nextInt(300)]);
            case 1 -> batch.delete(key);
            case 2 -> batch.merge(key, new byte[random.nextInt(30)]);
            default -> {
              byte[] to = Arrays.copyOf(key, key.length + 1);
              batch.deleteRange(key, to);
            }
          }
        }
        long before = m.approximateBytes();
        WriteBatchRecords.decode(WriteBatchRecords.encode(batch, sequence), "test", 0, m.inserter());
        sequence += batch.count();
        long added = m.approximateBytes() - before;
        long bound = MemTable.bytesToAdd(batch.encodedSize(), batch.count());
        assertTrue(added <= bound, "a batch added " + added + " bytes, more than its bound " + bound);
        assertTrue(m.hasRoomFor(MemTable.MAX_BYTES - m.approximateBytes()));
        assertFalse(m.hasRoomFor(MemTable.MAX_BYTES - m.approximateBytes() + 1));
      }
    });
  }

  @Test
  void randomOperationsMatchReference() throws Exception {
    Seeds.run("memtable vs reference", random -> {
      MemTable m = new MemTable();
      List<Op> ops = new ArrayList<>();
      int keySpace = 1 + random.nextInt(60);
      int count = 2000;
      // Sequences are unique but not added in order (group commit may interleave).
      List<Long> sequences = new ArrayList<>();
      for (long s = 1; s <= count; s++) {
        sequences.add(s);
      }
      Collections.shuffle(sequences, random);
      for (long sequence : sequences) {
        byte[] key = randomKey(random, keySpace);
        Op op = random.nextInt(4) == 0
            ? new Op(key, sequence, ValueType.DELETION, new byte[0])
            : new Op(key, sequence, ValueType.VALUE, randomValue(random));
        m.add(op.sequence, op.type, op.userKey, op.value);
        ops.add(op);
      }
      assertEquals(count, m.entries());
      assertEquals(1, m.smallestSequence());
      assertEquals(count, m.largestSequence());

      for (int i = 0; i < 500; i++) {
        byte[] key = randomKey(random, keySpace + 3);
        long snapshot = random.nextInt(count + 10);
        LookupResult expected = reference(ops, key, snapshot);
        LookupResult actual = m.get(key, snapshot);
        assertEquals(expected.kind(), actual.kind(), "kind at snapshot " + snapshot);
        assertArrayEquals(expected.value(), actual.value());
      }

      List<Op> sorted = new ArrayList<>(ops);
      sorted.sort((a, b) -> InternalKeyComparator.INSTANCE.compare(a.internalKey(), b.internalKey()));
      try (InternalIterator it = m.iterator()) {
        it.seekToFirst();
        for (Op op : sorted) {
          assertTrue(it.isValid());
          assertArrayEquals(op.internalKey(), it.key());
          assertArrayEquals(op.value, it.value());
          it.next();
        }
        assertFalse(it.isValid());

        for (int i = 0; i < 200; i++) {
          byte[] target = InternalKey.encode(
              randomKey(random, keySpace + 3), random.nextInt(count + 10), ValueType.FOR_SEEK);
          it.seek(target);
          int expectedIndex = 0;
          while (expectedIndex < sorted.size()
              && InternalKeyComparator.INSTANCE.compare(sorted.get(expectedIndex).internalKey(), target) < 0) {
            expectedIndex++;
          }
          for (int step = 0; step < 3 && expectedIndex + step < sorted.size(); step++) {
            assertTrue(it.isValid());
            assertArrayEquals(sorted.get(expectedIndex + step).internalKey(), it.key());
            it.next();
          }
          if (expectedIndex == sorted.size()) {
            assertFalse(it.isValid());
          }
        }
        java.util.TreeMap<byte[], byte[]> reference = new java.util.TreeMap<>(InternalKeyComparator.INSTANCE);
        sorted.forEach(op -> reference.put(op.internalKey(), op.value));
        dev.cairn.iter.IteratorWalk.internal(it, reference, InternalKeyComparator.INSTANCE,
            () -> InternalKey.encode(randomKey(random, keySpace + 3), random.nextInt(count + 10),
                random.nextBoolean() ? ValueType.VALUE : ValueType.DELETION), random, 2000, "memtable");
      }
    });
  }

  private static LookupResult reference(List<Op> ops, byte[] key, long snapshot) {
    Op newest = null;
    for (Op op : ops) {
      if (Arrays.equals(op.userKey, key) && op.sequence <= snapshot
          && (newest == null || op.sequence > newest.sequence)) {
        newest = op;
      }
    }
    if (newest == null) {
      return LookupResult.NOT_PRESENT;
    }
    return newest.type == ValueType.DELETION ? LookupResult.DELETED : LookupResult.found(newest.value);
  }

  static byte[] randomKey(Random random, int keySpace) {
    // Variable-length keys, some prefixes of others, to exercise the user-key boundary.
    int k = random.nextInt(keySpace);
    return bytes(Integer.toString(k, 7));
  }

  private static byte[] randomValue(Random random) {
    byte[] v = new byte[random.nextInt(12)];
    random.nextBytes(v);
    return v;
  }
}

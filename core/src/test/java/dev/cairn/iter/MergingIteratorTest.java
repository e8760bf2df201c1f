package dev.cairn.iter;

import static dev.cairn.iter.TestKeys.bytes;
import static dev.cairn.iter.TestKeys.drain;
import static dev.cairn.iter.TestKeys.put;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.CorruptionException;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.ValueType;
import dev.cairn.testkit.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class MergingIteratorTest {
  @Test
  void mergesInInternalKeyOrder() {
    ListIterator a = ListIterator.of(put("a", 3), bytes("a3"), put("c", 1), bytes("c1"));
    ListIterator b = ListIterator.of(put("a", 5), bytes("a5"), put("b", 2), bytes("b2"));
    ListIterator c = ListIterator.of();
    try (MergingIterator it = new MergingIterator(List.of(a, b, c))) {
      it.seekToFirst();
      assertEquals(List.of("a@5:VALUE", "a@3:VALUE", "b@2:VALUE", "c@1:VALUE"), drain(it));
      it.seek(InternalKey.seekKey(bytes("a"), 4));
      assertEquals(List.of("a@3:VALUE", "b@2:VALUE", "c@1:VALUE"), drain(it));
    }
  }

  @Test
  void equalKeysComeFromTheLowerIndexFirst() {
    ListIterator newer = ListIterator.of(put("k", 1), bytes("newer"));
    ListIterator older = ListIterator.of(put("k", 1), bytes("older"));
    try (MergingIterator it = new MergingIterator(List.of(newer, older))) {
      it.seekToFirst();
      assertArrayEquals(bytes("newer"), it.value());
      it.next();
      assertArrayEquals(bytes("older"), it.value());
      it.next();
      assertFalse(it.isValid());
    }
  }

  @Test
  void closeClosesEveryChildOnce() {
    ListIterator a = ListIterator.of(put("a", 1), bytes(""));
    ListIterator b = ListIterator.of();
    MergingIterator it = new MergingIterator(List.of(a, b));
    it.close();
    it.close();
    assertTrue(a.isClosed());
    assertTrue(b.isClosed());
  }

  @Test
  void corruptionFromAChildPropagatesAndAllChildrenStillClose() {
    ListIterator healthy = ListIterator.of(put("a", 1), bytes(""), put("z", 1), bytes(""));
    CorruptionException damage = new CorruptionException("000007.sst", 4096, "bad block checksum");
    FailingIterator failing = new FailingIterator(put("b", 1), damage);
    MergingIterator it = new MergingIterator(List.of(healthy, failing));
    it.seekToFirst();
    assertEquals("a@1:VALUE", InternalKey.describe(it.key()));
    it.next();
    assertEquals("b@1:VALUE", InternalKey.describe(it.key()));
    assertSame(damage, assertThrows(CorruptionException.class, it::next));
    assertFalse(it.isValid());
    it.close();
    assertTrue(healthy.isClosed());
    assertTrue(failing.closed);
  }

  @Test
  void randomChildrenMatchSortedUnion() throws Exception {
    Seeds.run("merging vs sorted union", random -> {
      for (int round = 0; round < 50; round++) {
        int childCount = random.nextInt(8);
        TreeMap<byte[], byte[]> union = new TreeMap<>(InternalKeyComparator.INSTANCE);
        List<TreeMap<byte[], byte[]>> parts = new ArrayList<>();
        for (int c = 0; c < childCount; c++) {
          parts.add(new TreeMap<>(InternalKeyComparator.INSTANCE));
        }
        long sequence = 0;
        int entries = childCount == 0 ? 0 : random.nextInt(300);
        for (int i = 0; i < entries; i++) {
          byte[] key = randomInternalKey(random, ++sequence);
          byte[] value = bytes("v" + sequence);
          union.put(key, value);
          parts.get(random.nextInt(childCount)).put(key, value);
        }
        List<ListIterator> children = new ArrayList<>();
        for (TreeMap<byte[], byte[]> part : parts) {
          children.add(new ListIterator(new ArrayList<>(part.entrySet())));
        }
        ListIterator reference = new ListIterator(new ArrayList<>(union.entrySet()));
        try (MergingIterator it = new MergingIterator(children)) {
          it.seekToFirst();
          reference.seekToFirst();
          assertSameEntries(reference, it, Integer.MAX_VALUE);
          for (int s = 0; s < 30; s++) {
            byte[] target = randomInternalKey(random, random.nextInt((int) sequence + 2));
            it.seek(target);
            reference.seek(target);
            assertSameEntries(reference, it, 5);
          }
        }
        children.forEach(child -> assertTrue(child.isClosed()));
      }
    });
  }

  /** Compares up to {@code steps} entries from the current positions, and validity after them. */
  static void assertSameEntries(InternalIterator expected, InternalIterator actual, int steps) {
    for (int i = 0; i < steps && expected.isValid(); i++) {
      assertTrue(actual.isValid(), "actual ended early");
      assertArrayEquals(expected.key(), actual.key(), () -> "expected " + InternalKey.describe(expected.key())
          + " got " + InternalKey.describe(actual.key()));
      assertArrayEquals(expected.value(), actual.value());
      expected.next();
      actual.next();
    }
    if (!expected.isValid()) {
      assertFalse(actual.isValid(), "actual has extra entries");
    }
  }

  static byte[] randomInternalKey(Random random, long sequence) {
    byte[] user = bytes(Integer.toString(random.nextInt(40), 5));
    return InternalKey.encode(user, sequence, random.nextBoolean() ? ValueType.VALUE : ValueType.DELETION);
  }
}

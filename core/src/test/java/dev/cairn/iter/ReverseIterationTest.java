package dev.cairn.iter;

import static dev.cairn.iter.TestKeys.put;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.ValueType;
import dev.cairn.testkit.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The in-memory internal iterators walked both ways against a reference: a list, merges of
 * several lists (direction changes re-seek every child), a concatenation of non-overlapping
 * lists, and a clipped range.
 */
class ReverseIterationTest {
  private static final InternalKeyComparator ORDER = InternalKeyComparator.INSTANCE;

  @Test
  void aListWalksBothWays() {
    Seeds.forEach(20, seed -> {
      Random rnd = new Random(seed);
      NavigableMap<byte[], byte[]> model = model(rnd, rnd.nextInt(60));
      IteratorWalk.internal(new ListIterator(new ArrayList<>(model.entrySet())), model, ORDER, targets(rnd), rnd,
          400, "list of " + model.size());
    });
  }

  @Test
  void aMergeWalksBothWaysWhateverTheSplit() {
    Seeds.forEach(40, seed -> {
      Random rnd = new Random(seed);
      NavigableMap<byte[], byte[]> model = model(rnd, rnd.nextInt(200));
      int children = 1 + rnd.nextInt(6);
      List<List<Map.Entry<byte[], byte[]>>> parts = new ArrayList<>();
      for (int i = 0; i < children; i++) {
        parts.add(new ArrayList<>());
      }
      for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
        parts.get(rnd.nextInt(children)).add(e); // some children may stay empty
      }
      List<InternalIterator> lists = new ArrayList<>();
      parts.forEach(p -> lists.add(new ListIterator(p)));
      try (MergingIterator it = new MergingIterator(lists)) {
        IteratorWalk.internal(it, model, ORDER, targets(rnd), rnd, 600, children + " children");
      }
    });
  }

  @Test
  void aConcatenationWalksAcrossItsItemsBothWays() {
    Seeds.forEach(30, seed -> {
      Random rnd = new Random(seed);
      NavigableMap<byte[], byte[]> model = model(rnd, 1 + rnd.nextInt(150));
      List<List<Map.Entry<byte[], byte[]>>> items = new ArrayList<>();
      List<Map.Entry<byte[], byte[]>> item = new ArrayList<>();
      for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
        item.add(e);
        if (rnd.nextInt(8) == 0) {
          items.add(item);
          item = new ArrayList<>();
        }
      }
      if (!item.isEmpty()) {
        items.add(item);
      }
      try (ConcatenatingIterator<List<Map.Entry<byte[], byte[]>>> it = new ConcatenatingIterator<>(items,
          i -> i.get(i.size() - 1).getKey(), ListIterator::new)) {
        IteratorWalk.internal(it, model, ORDER, targets(rnd), rnd, 600, items.size() + " items");
      }
    });
  }

  @Test
  void aClippedRangeShowsOnlyItsEntriesBothWays() {
    Seeds.forEach(30, seed -> {
      Random rnd = new Random(seed);
      NavigableMap<byte[], byte[]> model = model(rnd, 2 + rnd.nextInt(100));
      Supplier<byte[]> targets = targets(rnd);
      byte[] a = targets.get();
      byte[] b = targets.get();
      byte[] lowest = ORDER.compare(a, b) <= 0 ? a : b;
      byte[] highest = ORDER.compare(a, b) <= 0 ? b : a;
      NavigableMap<byte[], byte[]> clipped = model.subMap(lowest, true, highest, true);
      try (ClippedIterator it = new ClippedIterator(new ListIterator(new ArrayList<>(model.entrySet())), lowest,
          highest)) {
        IteratorWalk.internal(it, clipped, ORDER, targets, rnd, 400,
            "clipped to [" + InternalKey.describe(lowest) + ", " + InternalKey.describe(highest) + "]");
      }
    });
  }

  @Test
  void aMergeChangesDirectionAtEitherEnd() {
    try (MergingIterator it = new MergingIterator(List.of(
        ListIterator.of(put("a", 3), new byte[] {1}, put("c", 5), new byte[] {3}),
        ListIterator.of(put("b", 4), new byte[] {2})))) {
      it.seekToLast();
      assertArrayEquals(put("c", 5), it.key());
      it.prev();
      it.prev();
      assertArrayEquals(put("a", 3), it.key());
      it.prev();
      assertFalse(it.isValid());
      it.seekToFirst();
      it.next();
      assertArrayEquals(put("b", 4), it.key());
      it.prev();
      assertArrayEquals(put("a", 3), it.key());
      it.next();
      it.next();
      assertArrayEquals(put("c", 5), it.key());
    }
  }

  /** Up to {@code n} entries over a few user keys, several versions each, some tombstones. */
  static NavigableMap<byte[], byte[]> model(Random rnd, int n) {
    NavigableMap<byte[], byte[]> model = new TreeMap<>(ORDER);
    long sequence = 1;
    for (int i = 0; i < n; i++) {
      byte[] user = userKey(rnd.nextInt(Math.max(1, n / 3)) * 2);
      sequence += 1 + rnd.nextInt(3);
      ValueType type = rnd.nextInt(5) == 0 ? ValueType.DELETION : ValueType.VALUE;
      byte[] value = new byte[rnd.nextInt(6)];
      rnd.nextBytes(value);
      model.put(InternalKey.encode(user, sequence, type), value);
    }
    return model;
  }

  /** Seek targets: present and absent user keys (odd ones are never written) at any sequence. */
  static Supplier<byte[]> targets(Random rnd) {
    return () -> InternalKey.encode(userKey(rnd.nextInt(130)), rnd.nextInt(600),
        rnd.nextBoolean() ? ValueType.VALUE : ValueType.DELETION);
  }

  private static byte[] userKey(int i) {
    return TestKeys.bytes(String.format("k%04d", i));
  }
}

package dev.cairn.iter;

import static dev.cairn.iter.TestKeys.bytes;
import static dev.cairn.iter.TestKeys.del;
import static dev.cairn.iter.TestKeys.put;
import static dev.cairn.iter.TestKeys.string;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.CairnIterator;
import dev.cairn.CorruptionException;
import dev.cairn.DatabaseClosedException;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.UserKeys;
import dev.cairn.key.ValueType;
import dev.cairn.memtable.MemTable;
import dev.cairn.testkit.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class DbIteratorTest {
  private static final byte[] EMPTY = new byte[0];

  private static List<String> scan(CairnIterator it) {
    List<String> out = new ArrayList<>();
    for (it.seekToFirst(); it.isValid(); it.next()) {
      out.add(string(it.key()) + "=" + string(it.value()));
    }
    return out;
  }

  /** a: put@1, put@4; b: put@2, del@5; c: del@3, put@6; d: put@7. */
  private static InternalIterator history() {
    return ListIterator.of(
        put("a", 4), bytes("a4"), put("a", 1), bytes("a1"),
        del("b", 5), EMPTY, put("b", 2), bytes("b2"),
        put("c", 6), bytes("c6"), del("c", 3), EMPTY,
        put("d", 7), bytes("d7"));
  }

  @Test
  void showsNewestVisibleEntryPerKeyAndHidesTombstones() {
    assertEquals(List.of("a=a4", "c=c6", "d=d7"), scan(new DbIterator(history(), 7, null, null, null)));
    assertEquals(List.of("a=a4", "b=b2"), scan(new DbIterator(history(), 4, null, null, null)));
    assertEquals(List.of("a=a1", "b=b2"), scan(new DbIterator(history(), 2, null, null, null)));
    assertEquals(List.of(), scan(new DbIterator(history(), 0, null, null, null)));
    assertEquals(List.of("a=a4", "c=c6", "d=d7"),
        scan(new DbIterator(history(), Long.MAX_VALUE, null, null, null)));
  }

  @Test
  void boundsClampSeeksAndStopIteration() {
    try (DbIterator it = new DbIterator(history(), 7, bytes("b"), bytes("d"), null)) {
      it.seekToFirst();
      assertEquals("c", string(it.key()));
      it.next();
      assertFalse(it.isValid()); // d is at the upper bound
      it.seek(bytes("a")); // below the lower bound: clamped to it
      assertEquals("c", string(it.key()));
      it.seek(bytes("c"));
      assertEquals("c", string(it.key()));
      it.seek(bytes("ca"));
      assertFalse(it.isValid());
    }
  }

  @Test
  void upperBoundStopsWithoutReadingBeyondIt() {
    // The failing child would throw if the iterator advanced past the bound.
    FailingIterator beyond = new FailingIterator(put("m", 9), new IllegalStateException("read past bound"));
    ListIterator inside = ListIterator.of(put("a", 1), bytes("1"), put("b", 2), bytes("2"));
    try (DbIterator it = new DbIterator(new MergingIterator(List.of(inside, beyond)), 9, null, bytes("c"), null)) {
      assertEquals(List.of("a=1", "b=2"), scan(it));
    }
  }

  @Test
  void returnedArraysBelongToTheCaller() {
    MemTable m = new MemTable();
    m.add(1, ValueType.VALUE, bytes("a"), bytes("x"));
    m.add(2, ValueType.VALUE, bytes("b"), bytes("y"));
    try (DbIterator it = new DbIterator(m.iterator(), 2, null, null, null)) {
      it.seekToFirst();
      it.key()[0] = 'z';
      it.value()[0] = 'z';
      assertEquals("a", string(it.key()));
      it.next();
      assertEquals("b", string(it.key()));
    }
    assertArrayEquals(bytes("x"), m.get(bytes("a"), 2).value());
  }

  @Test
  void closeRunsOnCloseOnceAndLaterUseFails() {
    AtomicInteger released = new AtomicInteger();
    ListIterator internal = ListIterator.of(put("a", 1), bytes("1"));
    DbIterator it = new DbIterator(internal, 1, null, null, released::incrementAndGet);
    it.seekToFirst();
    it.close();
    it.close();
    assertEquals(1, released.get());
    assertTrue(internal.isClosed());
    assertThrows(DatabaseClosedException.class, it::isValid);
    assertThrows(DatabaseClosedException.class, it::seekToFirst);
    assertThrows(DatabaseClosedException.class, () -> it.seek(bytes("a")));
    assertThrows(DatabaseClosedException.class, it::next);
    assertThrows(DatabaseClosedException.class, it::key);
    assertThrows(DatabaseClosedException.class, it::value);
  }

  @Test
  void corruptionFromAChildPropagates() {
    CorruptionException damage = new CorruptionException("000012.sst", 8192, "block checksum mismatch");
    InternalIterator merged = new MergingIterator(List.of(
        ListIterator.of(put("a", 1), bytes("1"), put("z", 1), bytes("1")),
        new FailingIterator(put("b", 2), damage)));
    AtomicInteger released = new AtomicInteger();
    DbIterator it = new DbIterator(merged, 5, null, null, released::incrementAndGet);
    it.seekToFirst();
    assertEquals("a", string(it.key()));
    it.next();
    assertEquals("b", string(it.key()));
    assertSame(damage, assertThrows(CorruptionException.class, it::next));
    it.close();
    assertEquals(1, released.get());
  }

  /** One write of the random history. */
  private record Write(byte[] key, long sequence, boolean isDelete, byte[] value) {}

  @Test
  void randomHistoriesMatchTreeMapModel() throws Exception {
    Seeds.run("DbIterator vs TreeMap model", random -> {
      for (int round = 0; round < 40; round++) {
        int keySpace = 1 + random.nextInt(50);
        int writes = random.nextInt(400);
        List<Write> history = new ArrayList<>();
        for (long seq = 1; seq <= writes; seq++) {
          byte[] key = randomUserKey(random, keySpace);
          boolean isDelete = random.nextInt(3) == 0;
          history.add(new Write(key, seq, isDelete, isDelete ? EMPTY : bytes("v" + seq)));
        }
        for (int view = 0; view < 10; view++) {
          long snapshot = random.nextInt(writes + 3);
          byte[] lower = random.nextInt(3) == 0 ? null : randomUserKey(random, keySpace + 2);
          byte[] upper = random.nextInt(3) == 0 ? null : randomUserKey(random, keySpace + 2);
          NavigableMap<byte[], byte[]> model = model(history, snapshot, lower, upper);
          AtomicInteger released = new AtomicInteger();
          try (DbIterator it = new DbIterator(components(history, random), snapshot, lower, upper,
              released::incrementAndGet)) {
            String where = "snapshot " + snapshot + " bounds [" + printable(lower) + ", " + printable(upper) + ")";
            assertEquals(render(model), scan(it), where);
            for (int s = 0; s < 20; s++) {
              byte[] target = randomUserKey(random, keySpace + 2);
              it.seek(target);
              byte[] from = lower != null && UserKeys.compare(target, lower) < 0 ? lower : target;
              List<String> expected = render(model.tailMap(from, true)).stream().limit(3).toList();
              List<String> actual = new ArrayList<>();
              for (int i = 0; i < 3 && it.isValid(); i++, it.next()) {
                actual.add(string(it.key()) + "=" + string(it.value()));
              }
              assertEquals(expected, actual, where + " seek " + printable(target));
            }
            IteratorWalk.user(it, model, k -> k, () -> randomUserKey(random, keySpace + 2), random, 300,
                () -> where);
          }
          assertEquals(1, released.get());
        }
      }
    });
  }

  /** Spreads the history over a memtable and a few sorted lists, like memtables and tables. */
  private static InternalIterator components(List<Write> history, Random random) {
    int lists = random.nextInt(4);
    MemTable memTable = new MemTable();
    List<TreeMap<byte[], byte[]>> parts = new ArrayList<>();
    for (int i = 0; i < lists; i++) {
      parts.add(new TreeMap<>(InternalKeyComparator.INSTANCE));
    }
    for (Write w : history) {
      ValueType type = w.isDelete ? ValueType.DELETION : ValueType.VALUE;
      int slot = random.nextInt(lists + 1);
      if (slot == lists) {
        memTable.add(w.sequence, type, w.key, w.value);
      } else {
        parts.get(slot).put(InternalKey.encode(w.key, w.sequence, type), w.value);
      }
    }
    List<InternalIterator> children = new ArrayList<>();
    children.add(memTable.iterator());
    for (TreeMap<byte[], byte[]> part : parts) {
      children.add(new ListIterator(new ArrayList<>(part.entrySet())));
    }
    return new MergingIterator(children);
  }

  private static NavigableMap<byte[], byte[]> model(
      List<Write> history, long snapshot, byte[] lower, byte[] upper) {
    TreeMap<byte[], byte[]> state = new TreeMap<>(UserKeys.COMPARATOR);
    for (Write w : history) { // in sequence order
      if (w.sequence > snapshot) {
        break;
      }
      if (w.isDelete) {
        state.remove(w.key);
      } else {
        state.put(w.key, w.value);
      }
    }
    TreeMap<byte[], byte[]> view = new TreeMap<>(UserKeys.COMPARATOR);
    state.forEach((k, v) -> {
      if ((lower == null || UserKeys.compare(k, lower) >= 0)
          && (upper == null || UserKeys.compare(k, upper) < 0)) {
        view.put(k, v);
      }
    });
    return view;
  }

  private static List<String> render(Map<byte[], byte[]> map) {
    List<String> out = new ArrayList<>();
    map.forEach((k, v) -> out.add(string(k) + "=" + string(v)));
    return out;
  }

  private static byte[] randomUserKey(Random random, int keySpace) {
    return bytes(Integer.toString(random.nextInt(keySpace), 6));
  }

  private static String printable(byte[] key) {
    return key == null ? "null" : UserKeys.printable(key);
  }
}

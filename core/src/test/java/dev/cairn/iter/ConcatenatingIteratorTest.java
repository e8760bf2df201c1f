package dev.cairn.iter;

import static dev.cairn.iter.MergingIteratorTest.assertSameEntries;
import static dev.cairn.iter.TestKeys.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.key.InternalKey;
import dev.cairn.key.ValueType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConcatenatingIteratorTest {
  /** A stand-in for a table's metadata: its entries. */
  private record Item(List<Map.Entry<byte[], byte[]>> entries) {
    byte[] largest() {
      return entries.get(entries.size() - 1).getKey();
    }
  }

  /** Opens items as ListIterators and checks that at most one is open at a time. */
  private static final class Opener {
    final List<ListIterator> opened = new ArrayList<>();

    InternalIterator open(Item item) {
      for (ListIterator previous : opened) {
        assertTrue(previous.isClosed(), "previous item still open when opening the next");
      }
      ListIterator it = new ListIterator(item.entries());
      opened.add(it);
      return it;
    }
  }

  /** Keys 10, 20, ..., with several versions each; items cut at chosen places. */
  private static List<Map.Entry<byte[], byte[]>> allEntries() {
    List<Map.Entry<byte[], byte[]>> all = new ArrayList<>();
    for (int k = 10; k <= 200; k += 10) {
      for (long seq = 3; seq >= 1; seq--) {
        ValueType type = seq == 2 ? ValueType.DELETION : ValueType.VALUE;
        all.add(Map.entry(InternalKey.encode(bytes(String.format("k%03d", k)), k * 10 + seq, type), bytes("v" + k + "." + seq)));
      }
    }
    return all;
  }

  /**
   * Item boundaries fall between user keys and, as LevelDB allows, also between two versions of
   * one user key.
   */
  private static List<Item> split(List<Map.Entry<byte[], byte[]>> all, int... cuts) {
    List<Item> items = new ArrayList<>();
    int from = 0;
    for (int cut : cuts) {
      items.add(new Item(all.subList(from, cut)));
      from = cut;
    }
    items.add(new Item(all.subList(from, all.size())));
    return items;
  }

  @Test
  void seekAtEveryBoundaryMatchesOneList() {
    List<Map.Entry<byte[], byte[]>> all = allEntries();
    List<Item> items = split(all, 1, 3, 4, 17, 30, 31, 50);
    // Targets: every key, and for each user key seeks just above and below all its versions.
    List<byte[]> targets = new ArrayList<>();
    for (Map.Entry<byte[], byte[]> e : all) {
      byte[] user = InternalKey.userKey(e.getKey());
      targets.add(e.getKey());
      targets.add(InternalKey.seekKey(user, InternalKey.MAX_SEQUENCE));
      targets.add(InternalKey.encode(user, 0, ValueType.DELETION));
      targets.add(InternalKey.seekKey(bytes(TestKeys.string(user) + "5"), 7)); // between user keys
    }
    targets.add(InternalKey.seekKey(bytes("a"), 1)); // before everything
    targets.add(InternalKey.seekKey(bytes("z"), 1)); // after everything

    Opener opener = new Opener();
    ListIterator reference = new ListIterator(all);
    try (ConcatenatingIterator<Item> it =
        new ConcatenatingIterator<>(items, Item::largest, opener::open)) {
      for (byte[] target : targets) {
        it.seek(target);
        reference.seek(target);
        assertSameEntries(reference, it, 4);
      }
      it.seekToFirst();
      reference.seekToFirst();
      assertSameEntries(reference, it, Integer.MAX_VALUE);
    }
    opener.opened.forEach(child -> assertTrue(child.isClosed()));
  }

  @Test
  void opensOnlyTheItemASeekLandsIn() {
    List<Map.Entry<byte[], byte[]>> all = allEntries();
    List<Item> items = split(all, 15, 30, 45);
    Opener opener = new Opener();
    try (ConcatenatingIterator<Item> it =
        new ConcatenatingIterator<>(items, Item::largest, opener::open)) {
      it.seek(all.get(33).getKey());
      assertEquals(1, opener.opened.size());
      it.seek(all.get(40).getKey()); // same item: reused, not reopened
      assertEquals(1, opener.opened.size());
      it.seek(all.get(44).getKey());
      it.next(); // crosses into the last item
      assertEquals(2, opener.opened.size());
      assertTrue(opener.opened.get(0).isClosed());
      it.seek(InternalKey.seekKey(bytes("zz"), 1)); // beyond the last item: nothing is opened
      assertFalse(it.isValid());
      assertEquals(2, opener.opened.size());
      assertTrue(opener.opened.get(1).isClosed());
    }
  }

  @Test
  void emptyListIsNeverValid() {
    try (ConcatenatingIterator<Item> it =
        new ConcatenatingIterator<>(List.of(), Item::largest, item -> new EmptyIterator())) {
      it.seekToFirst();
      assertFalse(it.isValid());
      it.seek(InternalKey.seekKey(bytes("a"), 1));
      assertFalse(it.isValid());
    }
  }
}

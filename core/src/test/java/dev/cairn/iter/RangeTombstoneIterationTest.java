package dev.cairn.iter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.key.InternalKey;
import dev.cairn.key.RangeTombstone;
import dev.cairn.key.RangeTombstones;
import dev.cairn.key.ValueType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A user iterator over a merge whose older source a range tombstone covers for most of its keys:
 * it shows what the tombstone leaves and what was written after it, and moves the older source
 * past the covered range at once instead of stepping over every covered entry, in both directions.
 */
class RangeTombstoneIterationTest {

  /** Counts the steps taken through the iterator it wraps. */
  private static final class CountingIterator extends ForwardingIterator {
    int steps;

    CountingIterator(InternalIterator inner) {
      super(inner);
    }

    @Override
    public void next() {
      steps++;
      super.next();
    }

    @Override
    public void prev() {
      steps++;
      super.prev();
    }
  }

  private static String key(int i) {
    return String.format("k%04d", i);
  }

  /** 1,000 old keys (sequences 1..1000), key 500 rewritten at 2000, [100, 900) deleted at 1500. */
  private static DbIterator coveredMost(CountingIterator[] olderOut) {
    List<Map.Entry<byte[], byte[]>> old = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      old.add(Map.entry(InternalKey.encode(TestKeys.bytes(key(i)), 1 + i, ValueType.VALUE), TestKeys.bytes("old")));
    }
    List<Map.Entry<byte[], byte[]>> recent = List.of(
        Map.entry(InternalKey.encode(TestKeys.bytes(key(500)), 2000, ValueType.VALUE), TestKeys.bytes("new")));
    olderOut[0] = new CountingIterator(new ListIterator(old));
    MergingIterator merged = new MergingIterator(List.of(
        new SequenceBoundIterator(olderOut[0], 1000), new ListIterator(recent)));
    RangeTombstones tombstones = RangeTombstones.of(List.of(
        new RangeTombstone(TestKeys.bytes(key(100)), TestKeys.bytes(key(900)), 1500)));
    return new DbIterator(merged, InternalKey.MAX_SEQUENCE, null, null, null).withRangeTombstones(tombstones);
  }

  @Test
  void backwardATombstoneNewerThanASourceMovesItBeforeTheCoveredRange() {
    CountingIterator[] older = new CountingIterator[1];
    List<String> shown = new ArrayList<>();
    try (DbIterator it = coveredMost(older)) {
      for (it.seekToLast(); it.isValid(); it.prev()) {
        shown.add(TestKeys.string(it.key()) + "=" + TestKeys.string(it.value()));
      }
    }
    List<String> expected = new ArrayList<>();
    for (int i = 999; i >= 900; i--) {
      expected.add(key(i) + "=old");
    }
    expected.add(key(500) + "=new");
    for (int i = 99; i >= 0; i--) {
      expected.add(key(i) + "=old");
    }
    assertEquals(expected, shown);
    assertTrue(older[0].steps < 300, "the older source stepped " + older[0].steps + " times");
  }

  @Test
  void aTombstoneNewerThanASourceMovesItPastTheCoveredRange() {
    List<Map.Entry<byte[], byte[]>> old = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      old.add(Map.entry(InternalKey.encode(TestKeys.bytes(key(i)), 1 + i, ValueType.VALUE), TestKeys.bytes("old")));
    }
    List<Map.Entry<byte[], byte[]>> recent = List.of(
        Map.entry(InternalKey.encode(TestKeys.bytes(key(500)), 2000, ValueType.VALUE), TestKeys.bytes("new")));
    CountingIterator older = new CountingIterator(new ListIterator(old));
    MergingIterator merged = new MergingIterator(List.of(
        new SequenceBoundIterator(older, 1000), new ListIterator(recent)));
    RangeTombstones tombstones = RangeTombstones.of(List.of(
        new RangeTombstone(TestKeys.bytes(key(100)), TestKeys.bytes(key(900)), 1500)));
    List<String> shown = new ArrayList<>();
    try (DbIterator it = new DbIterator(merged, InternalKey.MAX_SEQUENCE, null, null, null).withRangeTombstones(tombstones)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        shown.add(TestKeys.string(it.key()) + "=" + TestKeys.string(it.value()));
      }
    }
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      expected.add(key(i) + "=old");
    }
    expected.add(key(500) + "=new");
    for (int i = 900; i < 1000; i++) {
      expected.add(key(i) + "=old");
    }
    assertEquals(expected, shown);
    // 200 keys shown from the older source; the 800 it covers are skipped, not stepped over.
    assertTrue(older.steps < 300, "the older source stepped " + older.steps + " times");
  }

  @Test
  void aSourceAsNewAsTheTombstoneIsSteppedThroughAndReadRight() {
    List<Map.Entry<byte[], byte[]>> entries = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      entries.add(Map.entry(InternalKey.encode(TestKeys.bytes(key(i)), 10 + i, ValueType.VALUE), TestKeys.bytes("v")));
    }
    // Sequences 10..59, the tombstone at 30: keys 0..19 (sequences 10..29) covered, 20.. shown.
    MergingIterator merged = new MergingIterator(List.of(new SequenceBoundIterator(new ListIterator(entries), 59)));
    RangeTombstones tombstones = RangeTombstones.of(List.of(
        new RangeTombstone(TestKeys.bytes(key(0)), TestKeys.bytes(key(40)), 30)));
    List<String> shown = new ArrayList<>();
    try (DbIterator it = new DbIterator(merged, InternalKey.MAX_SEQUENCE, null, null, null).withRangeTombstones(tombstones)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        shown.add(TestKeys.string(it.key()));
      }
    }
    List<String> expected = new ArrayList<>();
    for (int i = 20; i < 50; i++) {
      expected.add(key(i));
    }
    assertEquals(expected, shown);
  }
}

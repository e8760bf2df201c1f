package dev.cairn.iter;

import static dev.cairn.iter.TestKeys.bytes;
import static dev.cairn.iter.TestKeys.del;
import static dev.cairn.iter.TestKeys.drain;
import static dev.cairn.iter.TestKeys.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.LookupResult;
import dev.cairn.key.ValueType;
import dev.cairn.testkit.Seeds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class CompactionOutputIteratorTest {
  private static final byte[] EMPTY = new byte[0];

  private static List<String> filter(InternalIterator input, long[] snapshots, long last, boolean bottom) {
    long smallest = snapshots.length == 0 ? last : snapshots[0];
    try (CompactionOutputIterator it = new CompactionOutputIterator(input, snapshots, smallest, bottom)) {
      it.seekToFirst();
      return drain(it);
    }
  }

  @Test
  void withoutSnapshotsOnlyTheNewestEntryOfEachKeySurvives() {
    ListIterator input = ListIterator.of(
        put("a", 5), bytes("a5"), put("a", 3), bytes("a3"), del("a", 2), EMPTY, put("a", 1), bytes("a1"),
        del("b", 4), EMPTY, put("b", 1), bytes("b1"));
    CompactionOutputIterator it = new CompactionOutputIterator(input, new long[0], 5, false);
    it.seekToFirst();
    assertEquals(List.of("a@5:VALUE", "b@4:DELETION"), drain(it));
    assertEquals(4, it.droppedEntries());
    assertEquals(0, it.droppedTombstones());
    it.close();
    assertTrue(input.isClosed());
  }

  @Test
  void keepsTheNewestEntryVisibleToEachSnapshot() {
    // Snapshots 2 and 4 cut the stripes [0,2], (2,4], (4,∞).
    InternalIterator input = ListIterator.of(
        put("a", 6), bytes(""), put("a", 5), bytes(""), put("a", 4), bytes(""), del("a", 3), EMPTY,
        put("a", 2), bytes(""), put("a", 1), bytes(""));
    assertEquals(List.of("a@6:VALUE", "a@4:VALUE", "a@2:VALUE"), filter(input, new long[] {2, 4}, 6, false));
  }

  @Test
  void tombstonesDropOnlyAtTheBottomAndOnlyWhenTheyHideNothing() {
    // No snapshot: a tombstone over older data hides it; at the bottom both go.
    assertEquals(List.of("a@5:DELETION"),
        filter(ListIterator.of(del("a", 5), EMPTY, put("a", 3), bytes("")), new long[0], 5, false));
    assertEquals(List.of(),
        filter(ListIterator.of(del("a", 5), EMPTY, put("a", 3), bytes("")), new long[0], 5, true));

    // Snapshot 4 still sees a@3, so the tombstone that hides it from the latest state stays.
    assertEquals(List.of("a@5:DELETION", "a@3:VALUE"),
        filter(ListIterator.of(del("a", 5), EMPTY, put("a", 3), bytes("")), new long[] {4}, 5, true));

    // Snapshot 5 sees the tombstone, but with nothing below it that reads as absence: dropped.
    assertEquals(List.of("b@6:VALUE"),
        filter(ListIterator.of(put("b", 6), bytes(""), del("b", 5), EMPTY), new long[] {5}, 6, true));

    // Two stacked tombstones over nothing: both dropped; not at the bottom: both kept.
    InternalIterator stacked = ListIterator.of(del("c", 7), EMPTY, del("c", 4), EMPTY);
    assertEquals(List.of(), filter(stacked, new long[] {5}, 7, true));
    stacked = ListIterator.of(del("c", 7), EMPTY, del("c", 4), EMPTY);
    assertEquals(List.of("c@7:DELETION", "c@4:DELETION"), filter(stacked, new long[] {5}, 7, false));
  }

  @Test
  void perKeyBottommostDecision() {
    InternalIterator input = ListIterator.of(del("a", 3), EMPTY, del("b", 2), EMPTY);
    try (CompactionOutputIterator it = new CompactionOutputIterator(
        input, new long[0], 3, userKey -> Arrays.equals(userKey, bytes("a")))) {
      it.seekToFirst();
      assertEquals(List.of("b@2:DELETION"), drain(it));
      assertEquals(1, it.droppedTombstones());
    }
  }

  @Test
  void seekIsUnsupported() {
    try (CompactionOutputIterator it = new CompactionOutputIterator(ListIterator.of(), new long[0], 0, true)) {
      assertThrows(UnsupportedOperationException.class, () -> it.seek(put("a", 1)));
    }
  }

  @Test
  void randomInputsReadTheSameAtEverySnapshot() throws Exception {
    Seeds.run("compaction filter preserves every snapshot's view", random -> {
      for (int round = 0; round < 200; round++) {
        int keySpace = 1 + random.nextInt(8);
        int entries = random.nextInt(80);
        TreeMap<byte[], byte[]> input = new TreeMap<>(InternalKeyComparator.INSTANCE);
        for (long seq = 1; seq <= entries; seq++) {
          byte[] user = bytes("k" + random.nextInt(keySpace));
          ValueType type = random.nextInt(3) == 0 ? ValueType.DELETION : ValueType.VALUE;
          input.put(InternalKey.encode(user, seq, type), type == ValueType.VALUE ? bytes("v" + seq) : EMPTY);
        }
        long[] snapshots = random.longs(random.nextInt(5), 0, entries + 2).sorted().toArray();
        boolean bottom = random.nextBoolean();
        List<Map.Entry<byte[], byte[]>> inputList = new ArrayList<>(input.entrySet());
        List<Map.Entry<byte[], byte[]>> output = new ArrayList<>();
        long smallest = snapshots.length == 0 ? entries : snapshots[0];
        long dropped;
        try (CompactionOutputIterator it =
            new CompactionOutputIterator(new ListIterator(inputList), snapshots, smallest, bottom)) {
          for (it.seekToFirst(); it.isValid(); it.next()) {
            output.add(Map.entry(it.key(), it.value()));
          }
          dropped = it.droppedEntries();
        }
        String where = "round " + round + " snapshots " + Arrays.toString(snapshots) + " bottom " + bottom;
        assertEquals(inputList.size() - output.size(), dropped, where);
        new ListIterator(output); // throws unless the output is strictly ordered

        long[] readPoints = Arrays.copyOf(snapshots, snapshots.length + 1);
        readPoints[snapshots.length] = InternalKey.MAX_SEQUENCE;
        for (int k = 0; k < keySpace; k++) {
          byte[] user = bytes("k" + k);
          for (long readPoint : readPoints) {
            LookupResult before = lookup(inputList, user, readPoint);
            LookupResult after = lookup(output, user, readPoint);
            if (bottom && before.kind() == LookupResult.Kind.DELETED) {
              before = LookupResult.NOT_PRESENT; // nothing lies below the bottom
              after = after.kind() == LookupResult.Kind.DELETED ? LookupResult.NOT_PRESENT : after;
            }
            assertEquals(before.kind(), after.kind(), where + " key " + k + " at " + readPoint);
            assertEquals(Arrays.toString(before.value()), Arrays.toString(after.value()), where);
          }
        }
        assertMinimal(output, snapshots, bottom, where);
      }
    });
  }

  /** Nothing more could go: at most one entry per key and stripe, no bottom tombstone over nothing. */
  private static void assertMinimal(
      List<Map.Entry<byte[], byte[]>> output, long[] snapshots, boolean bottom, String where) {
    Set<String> keyAndStripe = new HashSet<>();
    for (int i = 0; i < output.size(); i++) {
      byte[] ikey = output.get(i).getKey();
      long stripe = Arrays.stream(snapshots).filter(s -> s < InternalKey.sequence(ikey)).distinct().count();
      String user = Arrays.toString(InternalKey.userKey(ikey));
      assertTrue(keyAndStripe.add(user + "/" + stripe), where + ": two entries in one stripe");
      boolean oldestOfKey = i + 1 == output.size()
          || InternalKey.compareUserKeys(ikey, output.get(i + 1).getKey()) != 0;
      if (bottom && oldestOfKey) {
        assertEquals(ValueType.VALUE, InternalKey.type(ikey), where + ": tombstone over nothing kept");
      }
    }
  }

  private static LookupResult lookup(List<Map.Entry<byte[], byte[]>> entries, byte[] user, long readPoint) {
    for (Map.Entry<byte[], byte[]> e : entries) { // internal order: newest first per user key
      byte[] ikey = e.getKey();
      if (Arrays.equals(InternalKey.userKey(ikey), user) && InternalKey.sequence(ikey) <= readPoint) {
        return InternalKey.type(ikey) == ValueType.DELETION ? LookupResult.DELETED : LookupResult.found(e.getValue());
      }
    }
    return LookupResult.NOT_PRESENT;
  }
}

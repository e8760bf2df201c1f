package dev.cairn.hbase.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.model.UserKeyOrder;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ChangedRowsTest {
  private static byte[] k(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void pointAndRangeQueriesFindExactlyTheRowsAdded() {
    ChangedRows rows = ChangedRows.builder().addRow(k("b"), 1).addRow(k("d"), ChangedRows.PARTIAL).addRow(k("f"), 6)
        .build();
    assertEquals(6, rows.maskOf(k("f")));
    assertEquals(ChangedRows.PARTIAL, rows.maskOf(k("d")));
    assertEquals(ChangedRows.UNCHANGED, rows.maskOf(k("e")));
    assertTrue(rows.containsRow(k("d")));
    assertFalse(rows.containsRow(k("c")));
    assertFalse(rows.containsRow(k("dd")));
    assertTrue(rows.intersects(k("c"), k("d")));
    assertFalse(rows.intersects(k("c"), k("cz")));
    assertFalse(rows.intersects(k("g"), null));
    assertTrue(rows.intersects(null, k("b")));
    assertFalse(rows.intersects(null, k("a")));
    assertEquals(3, rows.rowCount());
  }

  @Test
  void unseenRangesAnswerForEveryRowTheySpan() {
    ChangedRows rows = ChangedRows.builder().addUnknown(k("m"), null).addUnknown(k("c"), k("e")).build();
    assertTrue(rows.containsRow(k("d")));
    assertTrue(rows.containsRow(k("zzz")));
    assertFalse(rows.containsRow(k("f")));
    assertTrue(rows.intersects(k("f"), k("m")));
    assertFalse(rows.intersects(k("f"), k("l")));
    assertTrue(rows.hasUnknownRanges());
    assertEquals(ChangedRows.PARTIAL, rows.maskOf(k("d")));
  }

  @Test
  void rowsMustComeInIncreasingOrder() {
    ChangedRows.Builder b = ChangedRows.builder().addRow(k("b"), 1);
    assertThrows(IllegalArgumentException.class, () -> b.addRow(k("b"), 1));
    assertThrows(IllegalArgumentException.class, () -> b.addRow(k("a"), 1));
    assertThrows(IllegalArgumentException.class, () -> b.addRow(k("c"), ChangedRows.UNCHANGED));
    assertThrows(IllegalArgumentException.class, () -> ChangedRows.bit(63));
    assertThrows(IllegalArgumentException.class, () -> ChangedRows.builder().addUnknown(k("b"), k("a")));
  }

  @Test
  void anEmptyBuildIsNone() {
    assertSame(ChangedRows.NONE, ChangedRows.builder().build());
  }

  /** Random sets against a sorted-set model: membership and range tests agree. */
  @Test
  void agreesWithASortedSetModel() {
    Random random = new Random(42);
    for (int round = 0; round < 200; round++) {
      TreeSet<byte[]> a = randomRows(random);
      ChangedRows.Builder builder = ChangedRows.builder();
      a.forEach(r -> builder.addRow(r, 1 + r.length));
      ChangedRows ra = builder.build();
      assertEquals(a.size(), ra.rowCount());
      for (int q = 0; q < 50; q++) {
        byte[] x = randomRow(random);
        byte[] y = randomRow(random);
        byte[] lo = UserKeyOrder.min(x, y);
        byte[] hi = UserKeyOrder.max(x, y);
        assertEquals(a.contains(x), ra.containsRow(x));
        assertEquals(a.contains(x) ? 1 + x.length : 0, ra.maskOf(x));
        assertEquals(!a.subSet(lo, true, hi, true).isEmpty(), ra.intersects(lo, hi));
        assertEquals(!a.tailSet(lo, true).isEmpty(), ra.intersects(lo, null));
        assertEquals(!a.headSet(hi, true).isEmpty(), ra.intersects(null, hi));
      }
    }
  }

  private static TreeSet<byte[]> randomRows(Random random) {
    TreeSet<byte[]> rows = new TreeSet<>(UserKeyOrder.COMPARATOR);
    int n = random.nextInt(60);
    for (int i = 0; i < n; i++) {
      rows.add(randomRow(random));
    }
    return rows;
  }

  private static byte[] randomRow(Random random) {
    byte[] row = new byte[1 + random.nextInt(3)];
    for (int i = 0; i < row.length; i++) {
      row[i] = (byte) (random.nextBoolean() ? 'a' + random.nextInt(4) : 0xf0 + random.nextInt(3));
    }
    return row;
  }
}

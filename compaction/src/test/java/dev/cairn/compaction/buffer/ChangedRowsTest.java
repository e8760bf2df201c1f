package dev.cairn.compaction.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.compaction.model.UserKeyOrder;
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
    ChangedRows rows = ChangedRows.builder().addRow(k("b")).addRow(k("d")).addRow(k("f")).build();
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
  }

  @Test
  void rowsMustComeInIncreasingOrder() {
    ChangedRows.Builder b = ChangedRows.builder().addRow(k("b"));
    assertThrows(IllegalArgumentException.class, () -> b.addRow(k("b")));
    assertThrows(IllegalArgumentException.class, () -> b.addRow(k("a")));
    assertThrows(IllegalArgumentException.class, () -> ChangedRows.builder().addUnknown(k("b"), k("a")));
  }

  @Test
  void anEmptyBuildIsNoneAndUnionWithNoneIsIdentity() {
    assertSame(ChangedRows.NONE, ChangedRows.builder().build());
    ChangedRows rows = ChangedRows.builder().addRow(k("x")).build();
    assertSame(rows, rows.union(ChangedRows.NONE));
    assertSame(rows, ChangedRows.NONE.union(rows));
  }

  /** Random sets against a sorted-set model: membership, range tests and unions agree. */
  @Test
  void agreesWithASortedSetModel() {
    Random random = new Random(42);
    for (int round = 0; round < 200; round++) {
      TreeSet<byte[]> a = randomRows(random);
      TreeSet<byte[]> b = randomRows(random);
      ChangedRows ra = build(a);
      ChangedRows union = ra.union(build(b));
      TreeSet<byte[]> both = new TreeSet<>(UserKeyOrder.COMPARATOR);
      both.addAll(a);
      both.addAll(b);
      assertEquals(both.size(), union.rowCount());
      for (int q = 0; q < 50; q++) {
        byte[] x = randomRow(random);
        byte[] y = randomRow(random);
        byte[] lo = UserKeyOrder.min(x, y);
        byte[] hi = UserKeyOrder.max(x, y);
        assertEquals(a.contains(x), ra.containsRow(x));
        assertEquals(!a.subSet(lo, true, hi, true).isEmpty(), ra.intersects(lo, hi));
        assertEquals(!both.subSet(lo, true, hi, true).isEmpty(), union.intersects(lo, hi));
        assertEquals(!both.tailSet(lo, true).isEmpty(), union.intersects(lo, null));
        assertEquals(!both.headSet(hi, true).isEmpty(), union.intersects(null, hi));
      }
    }
  }

  private static ChangedRows build(TreeSet<byte[]> rows) {
    ChangedRows.Builder builder = ChangedRows.builder();
    rows.forEach(builder::addRow);
    return builder.build();
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

package dev.cairn.hbase.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RowFilterTest {
  private static byte[] row(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static long hash(byte[] row) {
    return RowFilter.hash(row, 0, row.length);
  }

  @Test
  void everyRowAddedIsFoundAndOthersRarely() {
    int rows = 50_000;
    RowFilter.Builder b = RowFilter.builder(rows);
    for (int i = 0; i < rows; i++) {
      b.add(row("user" + i), 0, row("user" + i).length);
    }
    RowFilter f = b.build();
    for (int i = 0; i < rows; i++) {
      assertTrue(f.mightContain(hash(row("user" + i))), "row user" + i + " was added");
    }
    int falsePositives = 0;
    int probes = 200_000;
    for (int i = rows; i < rows + probes; i++) {
      if (f.mightContain(hash(row("user" + i)))) {
        falsePositives++;
      }
    }
    double rate = (double) falsePositives / probes;
    assertTrue(rate < 0.02, "false-positive rate at " + RowFilter.BITS_PER_ROW + " bits per row: " + rate);
    assertTrue(rate > 0.0001, "a filter this small must have some false positives: " + rate);
  }

  @Test
  void randomBinaryRowsOfEveryLengthAreFound() {
    Random random = new Random(16);
    Set<String> added = new HashSet<>();
    RowFilter.Builder b = RowFilter.builder(2_000);
    byte[][] rows = new byte[2_000][];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = new byte[random.nextInt(40)];
      random.nextBytes(rows[i]);
      b.add(rows[i], 0, rows[i].length);
      added.add(new String(rows[i], StandardCharsets.ISO_8859_1));
    }
    RowFilter f = b.build();
    for (byte[] r : rows) {
      assertTrue(f.mightContain(hash(r)));
    }
    assertTrue(added.size() > 1_900);
  }

  @Test
  void theHashCoversARowsSliceOnly() {
    byte[] framed = row("xxuser42yy");
    assertEquals(hash(row("user42")), RowFilter.hash(framed, 2, 6));
    assertNotEquals(hash(row("user42")), hash(row("user43")));
    assertNotEquals(hash(new byte[0]), hash(new byte[1]), "length counts, zeros or not");
    assertNotEquals(hash(new byte[8]), hash(new byte[9]));
  }

  @Test
  void anEmptyFilterHoldsNoRow() {
    RowFilter f = RowFilter.builder(0).build();
    assertFalse(f.mightContain(hash(row("a"))));
    assertTrue(f.bytes() > 0);
  }

  @Test
  void aFilterTooLargeIsNotBuiltAndHoldsEveryRow() {
    RowFilter f = RowFilter.builder(RowFilter.MAX_BYTES).build();
    assertSame(RowFilter.ALL, f);
    assertTrue(f.mightContain(hash(row("anything"))));
    assertEquals(0, f.bytes());
  }

  @Test
  void aFilterIsSizedByTheRowsExpected() {
    long bytes = RowFilter.builder(100_000).build().bytes();
    assertTrue(bytes >= 100_000L * RowFilter.BITS_PER_ROW / 8 && bytes < 100_000L * RowFilter.BITS_PER_ROW / 8 + 64,
        "bytes: " + bytes);
  }

  @Test
  void negativeExpectedRowsAreRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RowFilter.builder(-1));
    assertTrue(e.getMessage().contains("expectedRows"));
  }
}

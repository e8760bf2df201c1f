package dev.cairn.compaction.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RowChangeAccountTest {
  private static byte[] k(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aRowWithFewerCellsOutThanInIsChanged() {
    RowChangeAccount account = new RowChangeAccount(100);
    account.input(k("a"), 2);
    account.output(k("a"), 2); // kept whole
    account.input(k("b"), 3);
    account.output(k("b"), 1); // two versions dropped
    account.input(k("c"), 1); // dropped entirely (expired or deleted)
    account.settleBelow(k("c"));
    account.input(k("d"), 1);
    account.output(k("d"), 1);
    ChangedRows changed = account.finish().orElseThrow();
    assertFalse(changed.containsRow(k("a")));
    assertTrue(changed.containsRow(k("b")));
    assertTrue(changed.containsRow(k("c")));
    assertFalse(changed.containsRow(k("d")));
    assertEquals(4, account.settledRows());
  }

  @Test
  void cellsCountedInAnyOrderWithinTheOpenWindow() {
    RowChangeAccount account = new RowChangeAccount(100);
    account.input(k("c"), 1); // a reseek on one input passed c before another input passed b
    account.input(k("b"), 1);
    account.output(k("b"), 1);
    account.output(k("c"), 1);
    assertEquals(ChangedRows.NONE, account.finish().orElseThrow());
  }

  @Test
  void unseenRangesAreChanged() {
    RowChangeAccount account = new RowChangeAccount(100);
    account.unseen(k("m"), null);
    ChangedRows changed = account.finish().orElseThrow();
    assertTrue(changed.containsRow(k("z")));
    assertFalse(changed.containsRow(k("a")));
  }

  @Test
  void givesUpPastItsRowLimitOrOnMoreCellsOutThanIn() {
    RowChangeAccount small = new RowChangeAccount(1);
    small.input(k("a"), 2);
    small.input(k("b"), 2);
    assertTrue(small.finish().isEmpty());
    assertTrue(small.failure().contains("more than 1 changed rows"));

    RowChangeAccount missed = new RowChangeAccount(100);
    missed.output(k("a"), 1);
    assertTrue(missed.finish().isEmpty());
    assertTrue(missed.failure().contains("more cells out"));
  }

  @Test
  void refusesCellsOfSettledRowsAndBoundsThatGoBack() {
    RowChangeAccount account = new RowChangeAccount(100);
    account.settleBelow(k("m"));
    assertThrows(IllegalStateException.class, () -> account.input(k("a"), 1));
    assertThrows(IllegalStateException.class, () -> account.settleBelow(k("b")));
    account.finish();
    assertThrows(IllegalStateException.class, account::finish);
  }
}

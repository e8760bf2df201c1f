package dev.cairn.hbase.buffer;

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
  void aRowWithFewerCellsOutThanInIsChangedWithTheInputsThatLostAll() {
    RowChangeAccount account = new RowChangeAccount(3, 100);
    account.input(k("a"), 0, 2);
    account.output(k("a"), 0, 2); // kept whole
    account.input(k("b"), 0, 1);
    account.input(k("b"), 2, 1);
    account.output(k("b"), 2, 1); // input 0's old version dropped, input 2's kept
    account.input(k("c"), 1, 1); // dropped entirely (expired or deleted)
    account.settleBelow(k("c"));
    account.input(k("d"), 0, 2);
    account.output(k("d"), 0, 1); // input 0 lost one of its two cells: partial
    account.input(k("e"), 1, 1);
    account.output(k("e"), RowChangeAccount.UNKNOWN_INPUT, 0);
    account.output(k("e"), 1, 1);
    ChangedRows changed = account.finish().orElseThrow();
    assertEquals(ChangedRows.UNCHANGED, changed.maskOf(k("a")));
    assertEquals(ChangedRows.bit(0), changed.maskOf(k("b")));
    assertEquals(ChangedRows.bit(1), changed.maskOf(k("c")));
    assertEquals(ChangedRows.PARTIAL, changed.maskOf(k("d")));
    assertEquals(ChangedRows.UNCHANGED, changed.maskOf(k("e")));
    assertEquals(5, account.settledRows());
  }

  @Test
  void anOutputCellOfUnknownInputMakesItsChangedRowPartial() {
    RowChangeAccount account = new RowChangeAccount(2, 100);
    account.input(k("a"), 0, 1);
    account.input(k("a"), 1, 1);
    account.output(k("a"), RowChangeAccount.UNKNOWN_INPUT, 1);
    assertEquals(ChangedRows.PARTIAL, account.finish().orElseThrow().maskOf(k("a")));
  }

  @Test
  void cellsCountedInAnyOrderWithinTheOpenWindow() {
    RowChangeAccount account = new RowChangeAccount(2, 100);
    account.input(k("c"), 1, 1); // a reseek on one input passed c before another input passed b
    account.input(k("b"), 0, 1);
    account.output(k("b"), 0, 1);
    account.output(k("c"), 1, 1);
    assertEquals(ChangedRows.NONE, account.finish().orElseThrow());
  }

  @Test
  void unseenRangesArePartial() {
    RowChangeAccount account = new RowChangeAccount(1, 100);
    account.unseen(k("m"), null);
    ChangedRows changed = account.finish().orElseThrow();
    assertEquals(ChangedRows.PARTIAL, changed.maskOf(k("z")));
    assertFalse(changed.containsRow(k("a")));
  }

  @Test
  void givesUpPastItsRowLimitOrOnMoreCellsOutThanIn() {
    RowChangeAccount small = new RowChangeAccount(1, 1);
    small.input(k("a"), 0, 2);
    small.input(k("b"), 0, 2);
    assertTrue(small.finish().isEmpty());
    assertTrue(small.failure().contains("more than 1 changed rows"));

    RowChangeAccount missed = new RowChangeAccount(1, 100);
    missed.output(k("a"), 0, 1);
    assertTrue(missed.finish().isEmpty());
    assertTrue(missed.failure().contains("more cells out"));
  }

  @Test
  void refusesCellsOfSettledRowsBoundsThatGoBackAndUnknownInputs() {
    RowChangeAccount account = new RowChangeAccount(1, 100);
    assertThrows(IllegalArgumentException.class, () -> account.input(k("a"), 1, 1));
    assertThrows(IllegalArgumentException.class, () -> account.output(k("a"), -2, 1));
    account.settleBelow(k("m"));
    assertThrows(IllegalStateException.class, () -> account.input(k("a"), 0, 1));
    assertThrows(IllegalStateException.class, () -> account.settleBelow(k("b")));
    account.finish();
    assertThrows(IllegalStateException.class, account::finish);
  }
}

package dev.cairn.db.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The write slowdown's pace and sleeps, on a driven clock (L0 triggers 8 and 12, 1 MB/s). */
class WriteSlowdownTest {
  private static final long MS = 1_000_000;
  private final WriteSlowdown slowdown = new WriteSlowdown(1_000_000, 8, 12);

  @Test
  void thePaceFallsAFilesStepAtATimeTowardsTheStop() {
    assertEquals(0, slowdown.rateBytesPerSecond(7), "below the band: no pace");
    assertEquals(1_000_000, slowdown.rateBytesPerSecond(8));
    assertEquals(750_000, slowdown.rateBytesPerSecond(9));
    assertEquals(500_000, slowdown.rateBytesPerSecond(10));
    assertEquals(250_000, slowdown.rateBytesPerSecond(11));
    assertEquals(0, slowdown.rateBytesPerSecond(12), "at the stop trigger writes stop instead");
    WriteSlowdown wide = new WriteSlowdown(1_600_000, 1, 100);
    assertEquals(100_000, wide.rateBytesPerSecond(99), "never below a sixteenth");
  }

  @Test
  void groupsPassUntilTheirBytesAreAMillisecondAhead() {
    // 1 MB/s: 1,000 bytes are a millisecond. Three groups of 400 bytes at the same instant.
    assertEquals(0, slowdown.delayNanos(8, 400, 0), "0.4 ms ahead: carried");
    assertEquals(0, slowdown.delayNanos(8, 400, 0), "0.8 ms ahead: carried");
    assertEquals(1_200_000, slowdown.delayNanos(8, 400, 0), "1.2 ms ahead: the group sleeps it all");
    // The sleeper wakes at 1.2 ms: the debt is paid, the next group starts afresh.
    assertEquals(0, slowdown.delayNanos(8, 400, 1_200_000));
  }

  @Test
  void timeThatPassesPaysTheDebt() {
    assertEquals(0, slowdown.delayNanos(8, 900, 0));
    assertEquals(0, slowdown.delayNanos(8, 900, 5 * MS), "written 0.9 ms of pace over 5 ms: nothing owed");
  }

  @Test
  void aFullerL0ChargesMore() {
    assertEquals(2 * MS, slowdown.delayNanos(10, 1000, 0), "half the pace: 1,000 bytes are 2 ms");
  }

  @Test
  void belowTheBandTheDebtIsForgottenAndAtTheStopNothingIsCharged() {
    assertEquals(0, slowdown.delayNanos(8, 900, 0));
    assertEquals(0, slowdown.delayNanos(7, 1_000_000, 0), "below the band nothing is paced");
    assertEquals(0, slowdown.delayNanos(8, 900, 0), "the earlier 0.9 ms was forgotten");
    assertEquals(0, slowdown.delayNanos(12, 1_000_000, 0), "at the stop trigger the caller stops instead");
    assertEquals(1_800_000, slowdown.delayNanos(8, 900, 0), "the debt within the band stays");
  }

  @Test
  void badSettingsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new WriteSlowdown(0, 8, 12));
    assertThrows(IllegalArgumentException.class, () -> new WriteSlowdown(1, 8, 7));
  }
}

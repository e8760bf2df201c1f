package dev.cairn.cassandra;

import static dev.cairn.cassandra.LowestLevelDelay.Verdict.DELAY;
import static dev.cairn.cassandra.LowestLevelDelay.Verdict.RELEASE_AT_BOUND;
import static dev.cairn.cassandra.LowestLevelDelay.Verdict.RUN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The delay of UCS's level 0 under load: when it holds, and the two bounds that end it. */
class LowestLevelDelayTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void onlyTheLowestLevelUnderHighLoadWaits() {
    LowestLevelDelay d = new LowestLevelDelay(8, 60 * SECOND);
    assertEquals(RUN, d.decide(false, 5, true, true, 0), "another level's compaction runs");
    assertEquals(RUN, d.decide(true, 5, false, true, 0), "low load");
    assertEquals(RUN, d.decide(true, 5, true, false, 0), "delay_l0 off");
    assertEquals(DELAY, d.decide(true, 5, true, true, 0));
    assertTrue(d.delaying());
    assertEquals(DELAY, d.decide(true, 6, true, true, 10 * SECOND));
    assertEquals(1, d.delayed(), "one delay, however often asked");
    assertEquals(10 * SECOND, d.currentDelayNanos(10 * SECOND));
    assertEquals(RUN, d.decide(true, 6, false, true, 11 * SECOND), "the load dropped: it runs");
    assertFalse(d.delaying());
    assertEquals(0, d.releasesAtBound());
  }

  @Test
  void theSSTableBoundReleasesAtOnce() {
    LowestLevelDelay d = new LowestLevelDelay(8, 60 * SECOND);
    assertEquals(DELAY, d.decide(true, 7, true, true, 0));
    assertEquals(RELEASE_AT_BOUND, d.decide(true, 8, true, true, SECOND));
    assertEquals(1, d.releasesAtBound());
    assertFalse(d.delaying());
    assertEquals(RELEASE_AT_BOUND, d.decide(true, 9, true, true, 2 * SECOND), "never delayed at the bound");
  }

  @Test
  void theTimeBoundReleasesWhateverTheLoad() {
    LowestLevelDelay d = new LowestLevelDelay(100, 3 * SECOND);
    assertEquals(DELAY, d.decide(true, 4, true, true, 0));
    assertFalse(d.overTime(2 * SECOND));
    assertEquals(DELAY, d.decide(true, 5, true, true, 2 * SECOND));
    assertTrue(d.overTime(3 * SECOND), "the ticker asks again once the bound is reached");
    assertEquals(RELEASE_AT_BOUND, d.decide(true, 5, true, true, 3 * SECOND));
    assertEquals(DELAY, d.decide(true, 5, true, true, 4 * SECOND), "a new delay begins");
    assertEquals(2, d.delayed());
  }

  @Test
  void badBoundsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new LowestLevelDelay(0, SECOND));
    assertThrows(IllegalArgumentException.class, () -> new LowestLevelDelay(4, -1));
  }
}

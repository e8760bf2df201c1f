package dev.cairn.compaction.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.compaction.adapt.FlushCachingPolicy.State;
import dev.cairn.compaction.adapt.FlushCachingPolicy.Verdict;
import dev.cairn.compaction.adapt.FlushCachingPolicy.Window;
import org.junit.jupiter.api.Test;

class FlushCachingPolicyTest {
  /** Two windows to change, so that a single contrary window can be seen not to flip. */
  private static final FlushCachingPolicy POLICY = new FlushCachingPolicy(3.0, 1.5, 2, 1000);

  /** A window whose fresh tables hold a tenth of the bytes and answered {@code share} of 10,000 reads. */
  private static Window tenthFresh(double share) {
    return new Window(Math.round(10_000 * share), 10_000, 0.1);
  }

  private static String run(boolean start, double... shares) {
    State s = State.initial(start);
    StringBuilder choices = new StringBuilder();
    for (double share : shares) {
      s = POLICY.next(s, tenthFresh(share));
      choices.append(s.caching() ? '+' : '-');
    }
    return choices.toString();
  }

  @Test
  void recencyIsTheFreshTablesShareOfTheReadsOverTheirShareOfTheBytes() {
    assertEquals(1.0, tenthFresh(0.1).recency(), 1e-9, "reads spread as the data is");
    assertEquals(6.0, tenthFresh(0.6).recency(), 1e-9, "reads following the writes");
    assertTrue(Double.isNaN(new Window(0, 0, 0.1).recency()), "no reads");
    assertTrue(Double.isNaN(new Window(0, 500, 0).recency()), "no fresh table");
  }

  @Test
  void readsThatFollowTheWritesTurnCachingOnAfterTwoWindowsAndSpreadReadsTurnItOff() {
    assertEquals("--", run(false, 0.1, 0.1));
    assertEquals("-++", run(false, 0.6, 0.6, 0.6));
    assertEquals("+--", run(true, 0.1, 0.1, 0.1));
  }

  @Test
  void byDefaultOneCountedWindowFlipsAndOnlyTheThresholdGapHolds() {
    FlushCachingPolicy defaults = FlushCachingPolicy.defaults();
    State on = defaults.next(State.initial(false), tenthFresh(0.6));
    assertTrue(on.caching());
    assertTrue(defaults.next(on, tenthFresh(0.2)).caching(), "recency 2 is inside the gap");
    assertFalse(defaults.next(on, tenthFresh(0.1)).caching(), "recency 1 is below it");
    assertEquals(Verdict.WAIT, defaults.judge(new Window(0, 999, 0.1)), "fewer than a thousand reads");
    assertEquals(Verdict.COUNTS, defaults.judge(new Window(0, 1_000, 0.1)));
  }

  @Test
  void oneWindowTheOtherWayDoesNotFlipAndTheGapHolds() {
    assertEquals("----", run(false, 0.6, 0.1, 0.6, 0.1), "never two in a row");
    // Between offBelow (1.5) and onAbove (3): neither on nor off moves.
    assertEquals("---", run(false, 0.2, 0.2, 0.2));
    assertEquals("+++", run(true, 0.2, 0.2, 0.2));
  }

  @Test
  void aWindowThatSaysNothingChangesNothing() {
    State pointing = POLICY.next(State.initial(false), tenthFresh(0.6));
    assertEquals(1, pointing.against());
    assertEquals(pointing, POLICY.next(pointing, new Window(50, 500, 0.1)), "too few reads");
    assertEquals(Verdict.WAIT, POLICY.judge(new Window(50, 500, 0.1)));
    assertEquals(pointing, POLICY.next(pointing, new Window(0, 0, 0.1)), "writes alone");
    assertEquals(Verdict.DROP, POLICY.judge(new Window(0, 0, 0.1)), "nothing to carry over");
    assertEquals(pointing, POLICY.next(pointing, new Window(0, 5_000, 0)), "no fresh table");
    assertEquals(Verdict.DROP, POLICY.judge(new Window(0, 5_000, 0)));
    // Fresh tables holding over a third of the data (3 = onAbove): even every read answered
    // there is a recency under 3, so the window could not have said "on".
    assertEquals(pointing, POLICY.next(pointing, new Window(2_000, 5_000, 0.4)), "fresh tables too large");
    assertEquals(Verdict.DROP, POLICY.judge(new Window(2_000, 5_000, 0.4)));
    assertEquals(Verdict.COUNTS, POLICY.judge(new Window(0, 5_000, 1.0 / 3)), "at a third it could just reach 3");
    State flipped = POLICY.next(pointing, tenthFresh(0.6));
    assertTrue(flipped.caching());
    assertEquals(1, flipped.switches());
    assertEquals(6.0, flipped.recency(), 1e-9);
  }

  @Test
  void badSettingsAndWindowsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new FlushCachingPolicy(1.0, 2.0, 2, 0));
    assertThrows(IllegalArgumentException.class, () -> new FlushCachingPolicy(3.0, 0, 2, 0));
    assertThrows(IllegalArgumentException.class, () -> new FlushCachingPolicy(3.0, 1.5, 0, 0));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new Window(10, 5, 0)).getMessage()
        .contains("freshAnswered=10, tableAnswered=5"), "names the values given");
    assertThrows(IllegalArgumentException.class, () -> new Window(0, 5, 1.5));
    assertThrows(IllegalArgumentException.class, () -> new Window(0, 5, Double.NaN));
  }
}

package dev.cairn.compaction.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The miss-cost estimate, window by window, and the space bound it gives (shape in, bound out). */
class MissCostTest {
  @Test
  void theFirstFullWindowSetsTheEstimateAndLaterOnesMoveItHalfway() {
    MissCost c = MissCost.UNKNOWN.afterWindow(100, 100 * 2_000_000L); // 100 reads of 2 ms
    assertEquals(2000.0, c.meanMicros(), 1e-9);
    c = c.afterWindow(200, 200 * 50_000L); // then a window of 50 us reads
    assertEquals(1025.0, c.meanMicros(), 1e-9);
    c = c.afterWindow(1000, 1000 * 50_000L);
    assertEquals(537.5, c.meanMicros(), 1e-9);
  }

  @Test
  void aWindowOfTooFewReadsLeavesTheEstimate() {
    MissCost c = MissCost.UNKNOWN.afterWindow(MissCost.MIN_WINDOW_READS - 1, 1_000_000_000L);
    assertSame(MissCost.UNKNOWN, c);
    assertFalse(c.known());
    MissCost known = new MissCost(80);
    assertSame(known, known.afterWindow(0, 0));
    assertTrue(known.afterWindow(MissCost.MIN_WINDOW_READS, 0).meanMicros() < 80);
  }

  @ParameterizedTest(name = "miss {0} us, full bound from {1} us -> {2}")
  @CsvSource({
      // unknown cost: the configured bound (the paper's buffer until a read misses)
      "NaN, 1000, 0.20",
      // a seek-class miss (the simulated slow device: 2 ms): the whole bound
      "2100, 1000, 0.20",
      "1000, 1000, 0.20",
      // a fast device's direct read: a small bound
      "80, 1000, 0.016",
      // the page cache: next to nothing
      "5, 1000, 0.001",
      "0, 1000, 0.0",
      // 0: adaptivity off, the whole bound whatever the cost
      "5, 0, 0.20",
  })
  void theBoundScalesWithTheMissUpToTheFullBoundCost(double missMicros, double fullBound, double expected) {
    assertEquals(expected, new MissCost(missMicros).boundFraction(0.20, fullBound), 1e-12);
  }

  @Test
  void badInputIsRefusedByName() {
    assertThrows(IllegalArgumentException.class, () -> new MissCost(-1));
    assertThrows(IllegalArgumentException.class, () -> MissCost.UNKNOWN.afterWindow(-1, 0));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new MissCost(5).boundFraction(0.2, -1));
    assertTrue(e.getMessage().contains("full-bound miss"), e.getMessage());
  }
}

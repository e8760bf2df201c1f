package dev.cairn.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class HighPhaseTest {
  private static Sample second(double elapsed, double reads, boolean high) {
    return new Sample(elapsed, "e", "periodic", reads, 0, 0, 0.9, 100, 1000, 100, 0, 0, 1, -1, "", high, Double.NaN);
  }

  private static Histogram of(long micros, int count) {
    Histogram h = new Histogram(3);
    h.recordValueWithCount(micros * 1000, count);
    return h;
  }

  @Test
  void theLaterFigureLeavesTheFirstHighPhaseOut() {
    List<Sample> samples = new ArrayList<>();
    for (int s = 1; s <= 12; s++) {
      samples.add(second(s, s <= 4 ? 500 : 1000, s % 6 != 0));
    }
    Histogram all = of(8_000, 50);
    all.add(of(1_000, 1000));
    Histogram later = of(1_000, 500);

    HighPhase high = HighPhase.of(samples, 1000, all, later);

    assertEquals(8_000, high.readP99Micros(), 8_000 * 0.01, "the first phase's slow reads are in the whole figure");
    assertEquals(1_000, high.laterReadP99Micros(), 1_000 * 0.01);
    assertEquals(4, high.drops(), "seconds 1-4 ran at half the offered rate");
  }

  @Test
  void noLaterHighPhaseIsNotANumber() {
    HighPhase high = HighPhase.of(List.of(second(1, 1000, true)), 1000, of(1_000, 10), new Histogram(3));
    assertTrue(Double.isNaN(high.laterReadP99Micros()));
    assertEquals(1_000, high.readP99Micros(), 10);
  }
}

package dev.cairn.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ReadRatesTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void ratesAreSmoothedPerSecondDifferencesOfTheMeters() {
    ReadRates r = new ReadRates();
    r.observe(Map.of(1L, 100L, 2L, 0L), 0);
    assertEquals(0.0, r.rate(1), "the first sample is a baseline");
    r.observe(Map.of(1L, 300L, 2L, 0L), 2 * SECOND);
    assertEquals(50.0, r.rate(1), "100/s over the interval, half-weighted against 0");
    r.observe(Map.of(1L, 300L, 2L, 0L), 3 * SECOND);
    assertEquals(25.0, r.rate(1), "no reads: the rate halves");
    assertEquals(0.0, r.rate(2));
  }

  @Test
  void newSSTablesStartFromABaselineAndGoneOnesAreForgotten() {
    ReadRates r = new ReadRates();
    r.observe(Map.of(1L, 10L), 0);
    r.observe(Map.of(1L, 30L, 2L, 1_000_000L), SECOND);
    assertEquals(0.0, r.rate(2), "a meter's history before the SSTable was seen is not a rate");
    r.observe(Map.of(2L, 1_000_010L), 2 * SECOND);
    assertEquals(5.0, r.rate(2));
    assertEquals(0.0, r.rate(1), "no longer live");
    assertEquals(5.0, r.heat().rate(2));
  }
}

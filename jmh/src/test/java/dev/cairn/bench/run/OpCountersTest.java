package dev.cairn.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class OpCountersTest {
  @Test
  void recordersHaveAFixedRangeUpToAnHour() {
    OpCounters counters = new OpCounters();
    Histogram interval = counters.readLatency.getIntervalHistogram();
    assertFalse(interval.isAutoResize(), "an auto-resizing histogram grows under the recorders' lock");
    assertTrue(interval.getHighestTrackableValue() >= OpCounters.MAX_LATENCY_NANOS);
  }

  @Test
  void latenciesAreClampedIntoTheRecordersRange() {
    long now = System.nanoTime();
    assertEquals(OpCounters.MAX_LATENCY_NANOS, OpCounters.latencySince(now - TimeUnit.HOURS.toNanos(2)));
    assertEquals(1, OpCounters.latencySince(now + TimeUnit.SECONDS.toNanos(10)));
    long recent = OpCounters.latencySince(now);
    assertTrue(recent >= 1 && recent < TimeUnit.MINUTES.toNanos(1), "latency " + recent);
  }

  @Test
  void aReusedIntervalHistogramHoldsOnlyTheNextIntervalsLatencies() {
    OpCounters counters = new OpCounters();
    counters.writeLatency.recordValue(OpCounters.MAX_LATENCY_NANOS);
    counters.writeLatency.recordValue(5_000);
    Histogram first = counters.writeLatency.getIntervalHistogram();
    assertEquals(2, first.getTotalCount());
    assertTrue(first.getMaxValue() >= OpCounters.MAX_LATENCY_NANOS * 0.999, "max " + first.getMaxValue());

    counters.writeLatency.recordValue(7_000);
    Histogram second = counters.writeLatency.getIntervalHistogram(first);
    assertEquals(1, second.getTotalCount());
    assertTrue(second.getMaxValue() >= 6_990 && second.getMaxValue() <= 7_010, "max " + second.getMaxValue());

    // The histogram handed back was reset and recorded the third interval: none of the first's counts.
    counters.writeLatency.recordValue(9_000);
    Histogram third = counters.writeLatency.getIntervalHistogram(second);
    assertSame(first, third, "the histogram handed back is reused");
    assertEquals(1, third.getTotalCount());
    assertTrue(third.getMaxValue() >= 8_990 && third.getMaxValue() <= 9_010, "max " + third.getMaxValue());
  }
}

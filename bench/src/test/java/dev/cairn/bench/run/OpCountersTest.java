package dev.cairn.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import org.junit.jupiter.api.Test;

class OpCountersTest {
  @Test
  void recordersHaveAFixedRangeUpToAnHour() {
    OpCounters counters = new OpCounters();
    counters.readLatency.newWriter().recordValue(OpCounters.MAX_LATENCY_NANOS);
    Histogram interval = counters.readLatency.interval();
    assertFalse(interval.isAutoResize(), "an auto-resizing histogram grows under the recorders' lock");
    assertTrue(interval.getHighestTrackableValue() >= OpCounters.MAX_LATENCY_NANOS);
    assertEquals(1, interval.getTotalCount());
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
  void eachIntervalHoldsOnlyWhatWasRecordedSinceThePreviousOne() {
    OpCounters counters = new OpCounters();
    SingleWriterRecorder writer = counters.writeLatency.newWriter();
    writer.recordValue(OpCounters.MAX_LATENCY_NANOS);
    writer.recordValue(5_000);
    Histogram first = counters.writeLatency.interval();
    assertEquals(2, first.getTotalCount());
    assertTrue(first.getMaxValue() >= OpCounters.MAX_LATENCY_NANOS * 0.999, "max " + first.getMaxValue());

    writer.recordValue(7_000);
    Histogram second = counters.writeLatency.interval();
    assertEquals(1, second.getTotalCount());
    assertTrue(second.getMaxValue() >= 6_990 && second.getMaxValue() <= 7_010, "max " + second.getMaxValue());

    assertEquals(0, counters.writeLatency.interval().getTotalCount(), "nothing recorded since");
  }

  @Test
  void anIntervalGathersEveryWorkersLatencies() throws InterruptedException {
    ThreadLatencies latencies = new ThreadLatencies();
    SingleWriterRecorder fast = latencies.newWriter();
    SingleWriterRecorder slow = latencies.newWriter();
    Thread a = new Thread(() -> {
      for (int i = 0; i < 1_000; i++) {
        fast.recordValue(1_000);
      }
    });
    Thread b = new Thread(() -> {
      for (int i = 0; i < 500; i++) {
        slow.recordValue(2_000_000);
      }
    });
    a.start();
    b.start();
    a.join();
    b.join();
    Histogram both = latencies.interval();
    assertEquals(1_500, both.getTotalCount());
    assertEquals(1_000, both.getCountAtValue(1_000));
    assertEquals(500, both.getCountAtValue(2_000_000));

    // A worker that starts later is gathered from its first interval on.
    SingleWriterRecorder late = latencies.newWriter();
    late.recordValue(3_000);
    fast.recordValue(1_000);
    Histogram next = latencies.interval();
    assertEquals(2, next.getTotalCount());
    assertEquals(1, next.getCountAtValue(3_000));
  }
}

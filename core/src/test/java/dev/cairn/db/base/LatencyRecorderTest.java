package dev.cairn.db.base;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.Stats;
import dev.cairn.util.ThreadStripes;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyRecorderTest {
  @Test
  void stripesAddUpToWhatOneHistogramOfAllTheValuesSays() throws Exception {
    LatencyRecorder recorder = new LatencyRecorder();
    // More threads than stripes, so some stripes are shared; each thread its own value range so
    // that a stripe left out of the sum would move the percentiles.
    int threads = 2 * ThreadStripes.count() + 1;
    int perThread = 20_000;
    List<long[]> values = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      SplittableRandom random = new SplittableRandom(t);
      long[] v = new long[perThread];
      for (int i = 0; i < perThread; i++) {
        v[i] = 1 + (long) t * 100 + random.nextInt(100);
      }
      values.add(v);
    }
    List<Thread> recorders = new ArrayList<>();
    for (long[] v : values) {
      Thread thread = new Thread(() -> {
        for (long micros : v) {
          recorder.record(micros);
        }
      });
      recorders.add(thread);
      thread.start();
    }
    for (Thread thread : recorders) {
      thread.join();
    }

    Histogram expected = new Histogram(LatencyRecorder.MAX_MICROS, LatencyRecorder.SIGNIFICANT_DIGITS);
    for (long[] v : values) {
      for (long micros : v) {
        expected.recordValue(micros);
      }
    }
    Stats.Latency got = recorder.snapshot();
    assertEquals((long) threads * perThread, recorder.count());
    assertEquals(expected.getTotalCount(), got.count());
    assertEquals(expected.getValueAtPercentile(50), got.p50Micros());
    assertEquals(expected.getValueAtPercentile(99), got.p99Micros());
    assertEquals(expected.getMaxValue(), got.maxMicros());
  }

  @Test
  void negativeAndHugeDurationsAreClamped() {
    LatencyRecorder recorder = new LatencyRecorder();
    recorder.record(-5);
    recorder.record(Long.MAX_VALUE);
    Stats.Latency got = recorder.snapshot();
    assertEquals(2, got.count());
    Histogram empty = new Histogram(LatencyRecorder.MAX_MICROS, LatencyRecorder.SIGNIFICANT_DIGITS);
    assertEquals(empty.highestEquivalentValue(LatencyRecorder.MAX_MICROS), got.maxMicros());
  }
}

package dev.cairn.db.base;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.Stats;
import dev.cairn.util.ThreadStripes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LatencyRecorderTest {
  @Test
  void stripesAddUpToTheNearestRankOfAllTheValues() throws Exception {
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
        v[i] = 1 + (long) t * 1000 + random.nextInt(1000);
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

    long[] sorted = values.stream().flatMapToLong(Arrays::stream).sorted().toArray();
    int n = sorted.length;
    Stats.Latency got = recorder.snapshot();
    assertEquals(n, recorder.count());
    assertEquals(n, got.count());
    assertEquals(bucketTop(sorted[(int) LatencyRecorder.rank(n, 50) - 1]), got.p50Micros());
    assertEquals(bucketTop(sorted[(int) LatencyRecorder.rank(n, 99) - 1]), got.p99Micros());
    assertEquals(bucketTop(sorted[n - 1]), got.maxMicros());
  }

  @Test
  void nearestRankRoundsUp() {
    assertEquals(1, LatencyRecorder.rank(1, 50));
    assertEquals(1, LatencyRecorder.rank(2, 50));
    assertEquals(2, LatencyRecorder.rank(3, 50));
    assertEquals(99, LatencyRecorder.rank(100, 99));
    assertEquals(100, LatencyRecorder.rank(101, 99));
    assertEquals(0, LatencyRecorder.rank(0, 99));
  }

  @Test
  void anEmptyRecorderReportsZeros() {
    Stats.Latency got = new LatencyRecorder().snapshot();
    assertEquals(0, got.count());
    assertEquals(0, got.p50Micros());
    assertEquals(0, got.p99Micros());
    assertEquals(0, got.maxMicros());
  }

  @Test
  void negativeAndHugeDurationsAreClamped() {
    LatencyRecorder recorder = new LatencyRecorder();
    recorder.record(-5);
    recorder.record(Long.MAX_VALUE);
    Stats.Latency got = recorder.snapshot();
    assertEquals(2, got.count());
    assertEquals(0, got.p50Micros(), "-5 counts as 0");
    assertEquals(bucketTop(LatencyRecorder.MAX_MICROS), got.maxMicros());
  }

  private static long bucketTop(long value) {
    return LatencyBuckets.highest(LatencyBuckets.index(value));
  }
}

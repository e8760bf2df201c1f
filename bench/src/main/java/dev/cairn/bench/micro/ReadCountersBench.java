package dev.cairn.bench.micro;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.ConcurrentHistogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The counters every point read updates besides the read itself, as two reading threads update
 * them: {@code shared} is the simple design (one atomic in-flight count, incremented and
 * decremented, and one {@code ConcurrentHistogram} for the get latency); {@code striped} is the
 * engine's {@code InFlightCalls} and {@code LatencyRecorder} (a stripe
 * per thread; {@link ReadCounters} holds them). The
 * difference is what sharing the counters' cache lines cost each read.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(3)
@Threads(2)
public class ReadCountersBench {
  private final AtomicInteger sharedCalls = new AtomicInteger();
  private final ConcurrentHistogram sharedLatency = new ConcurrentHistogram(3_600_000_000L, 2);
  private final ReadCounters striped = new ReadCounters();

  @Benchmark
  public int shared() {
    sharedCalls.incrementAndGet();
    sharedLatency.recordValue(4);
    return sharedCalls.decrementAndGet();
  }

  @Benchmark
  public void striped() {
    striped.oneRead(4);
  }
}

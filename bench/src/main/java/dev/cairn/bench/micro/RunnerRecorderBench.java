package dev.cairn.bench.micro;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Recorder;
import org.HdrHistogram.SingleWriterRecorder;
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
 * What the workload runner pays to time one operation, as two worker threads record: {@code
 * shared} is one HdrHistogram {@link Recorder} for every worker, {@code perThread} a {@link SingleWriterRecorder} for each (what the
 * runner's {@code ThreadLatencies} does). Both have the runner's fixed range and precision. The difference
 * is what every engine's reads paid in the runner for the workers sharing the recorder's lines.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
@Threads(2)
public class RunnerRecorderBench {
  private static final long MAX_NANOS = TimeUnit.HOURS.toNanos(1);
  private static final int DIGITS = 3;

  private final Recorder shared = new Recorder(1, MAX_NANOS, DIGITS);

  @State(Scope.Thread)
  public static class Own {
    final SingleWriterRecorder recorder = new SingleWriterRecorder(1, MAX_NANOS, DIGITS);
    long value = 1_000;
  }

  @Benchmark
  public void shared(Own own) {
    // A latency that moves about a read's range, as the runner's do.
    own.value = own.value * 1_103_515_245L + 12_345L;
    shared.recordValue(1_000 + (own.value >>> 52));
  }

  @Benchmark
  public void perThread(Own own) {
    own.value = own.value * 1_103_515_245L + 12_345L;
    own.recorder.recordValue(1_000 + (own.value >>> 52));
  }
}

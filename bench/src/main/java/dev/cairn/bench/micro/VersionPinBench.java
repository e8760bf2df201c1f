package dev.cairn.bench.micro;

import dev.cairn.bench.run.DirectorySize;
import dev.cairn.version.Version;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * How a point read holds the current version, as two reading threads do it: {@code referenced}
 * takes a reference of its own and drops it (one count both threads write), {@code cached} takes
 * the thread stripe's cached reference and puts it back ({@code CachedVersions}). {@code work}
 * is CPU spent while holding it, in JMH's tokens, standing in for the read itself
 * (0: the pin alone; 300: about a microsecond, as a cached get).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(3)
@Threads(2)
public class VersionPinBench {
  @Param({"0", "300"})
  public int work;

  private Path dir;
  private VersionPins pins;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    dir = Files.createTempDirectory("cairn-version-pin-bench");
    pins = new VersionPins(dir);
  }

  @Benchmark
  public Version referenced() {
    Version v = pins.takeReferenced();
    Blackhole.consumeCPU(work);
    pins.dropReferenced(v);
    return v;
  }

  @Benchmark
  public Version cached() {
    Version v = pins.takeCached();
    Blackhole.consumeCPU(work);
    pins.putBack(v);
    return v;
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    pins.close();
    DirectorySize.deleteRecursively(dir);
  }
}

package dev.cairn.bench.micro;

import dev.cairn.table.filter.BloomFilter;
import dev.cairn.table.filter.BloomFilterBuilder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Bloom filter probes (10 bits/key, 100k keys): a present key (hit) and an absent one (miss). */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FilterProbeBench {
  private static final int KEYS = 100_000;
  private BloomFilter filter;
  private byte[][] present;
  private byte[][] absent;
  private int next;

  @Setup
  public void setup() {
    BloomFilterBuilder b = new BloomFilterBuilder(10);
    present = new byte[1024][];
    absent = new byte[1024][];
    for (int i = 0; i < KEYS; i++) {
      byte[] k = String.format("user%012d", i).getBytes(StandardCharsets.UTF_8);
      b.addKey(k);
      if (i < present.length) {
        present[i] = k;
        absent[i] = String.format("miss%012d", i).getBytes(StandardCharsets.UTF_8);
      }
    }
    filter = BloomFilter.decode(b.finish(), "bench", 0);
  }

  @Benchmark
  public boolean hit() {
    return filter.mayContain(present[next++ & 1023]);
  }

  @Benchmark
  public boolean miss() {
    return filter.mayContain(absent[next++ & 1023]);
  }
}

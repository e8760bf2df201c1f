package dev.cairn.bench.micro;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.bench.run.DirectorySize;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
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

/**
 * Point reads past {@code tables} overlapping L0 tables, every block cached, two reader threads:
 * the per-table cost of a read when a load's compaction backlog leaves many L0 tables (the
 * runner's out-of-the-box runs start with 9-15, docs/results/issue21 {@code backlog.py}). The
 * first table holds every key; each later one holds other keys spread over the same range, so a
 * read of a first-table key passes every newer table (its range covers the key; its Bloom
 * filter answers, at times falsely) before the first one answers. Nothing compacts (L0's
 * trigger is above {@code tables}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
@Threads(2)
public class L0GetBench {
  private static final int KEYS = 50_000;
  private static final int VALUE_BYTES = 100;

  /** L0 tables a read passes, the oldest answering. */
  @Param({"1", "4", "12"})
  public int tables;

  private Path dir;
  private Cairn db;
  private byte[][] keys;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    dir = Files.createTempDirectory("cairn-l0get-bench");
    db = Cairn.open(dir, Options.builder()
        .memtableBytes(64 << 20)
        .blockCacheBytes(256L << 20)
        .l0CompactionTrigger(100)
        .l0SlowdownTrigger(200)
        .l0StopTrigger(300)
        .build());
    byte[] value = new byte[VALUE_BYTES];
    SplittableRandom r = new SplittableRandom(5);
    for (int t = 0; t < tables; t++) {
      for (int i = 0; i < KEYS; i++) {
        r.nextBytes(value);
        // Table 0: "k<i>a"; table t > 0: "k<i>b<t>", between first-table keys across the range.
        db.put(key(i, t), value);
      }
      db.flush();
    }
    keys = new byte[4096][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = key(r.nextInt(KEYS), 0);
    }
    for (byte[] k : keys) { // every block the reads need, cached
      if (db.get(k) == null) {
        throw new IllegalStateException("key missing after the load");
      }
    }
  }

  private static byte[] key(int i, int table) {
    return (String.format("k%08d", i) + (table == 0 ? "a" : "b" + table)).getBytes(StandardCharsets.UTF_8);
  }

  @State(Scope.Thread)
  public static class Cursor {
    int next;
  }

  @Benchmark
  public byte[] throughAll(Cursor c) {
    return db.get(keys[c.next++ & 4095]);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    db.close();
    DirectorySize.deleteRecursively(dir);
  }
}

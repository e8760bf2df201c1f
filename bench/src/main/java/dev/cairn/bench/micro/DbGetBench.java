package dev.cairn.bench.micro;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.bench.run.DirectorySize;
import dev.cairn.compaction.buffer.BufferConfig;
import dev.cairn.config.CompactionSettings;
import java.io.IOException;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Point reads through a whole database whose blocks are all cached, after the same churn under
 * table compaction and under the compaction buffer: the CPU a get spends walking levels,
 * filters, table handles and (with the buffer) the buffer's runs, without I/O. The churn updates
 * a hot fifth of the keys in rounds, so that with the buffer the hot keys' newest versions sit in
 * buffer files above the levels' own files, as in the runner's RangeHot. {@code hot} reads those
 * keys; {@code cold} reads the rest, whose walks through the buffer find nothing and fall through
 * to the levels' files; {@code absent} reads keys the database never held.
 *
 * <p>The trim is paced by time only, once an hour, so the buffer's shape stays fixed while the
 * benchmark measures; the space bound keeps its default.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DbGetBench {
  private static final int KEYS = 100_000;
  private static final int HOT = KEYS / 5;
  private static final int ROUNDS = 12;
  private static final int VALUE_BYTES = 200;

  /** TABLE or BUFFER: whole tables rewritten, or the compaction buffer. */
  @Param({"TABLE", "BUFFER"})
  public String style;

  private Path dir;
  private Cairn db;
  private byte[][] hot;
  private byte[][] cold;
  private byte[][] absent;

  @Setup(Level.Trial)
  public void setup() throws IOException, InterruptedException {
    dir = Files.createTempDirectory("cairn-dbget-bench");
    db = Cairn.open(dir, Options.builder()
        .memtableBytes(1 << 20)
        .targetFileBytes(256 << 10)
        .baseLevelBytes(2 << 20)
        .blockCacheBytes(256L << 20)
        .compaction(CompactionSettings.leveled(style.equals("BUFFER")
            ? new CompactionSettings.Buffer(BufferConfig.defaults().withTrimIntervalMillis(3_600_000)
                .withTrimPassesPerBaseLevel(0)
                // The churn reads nothing: keep its merges in the buffer to walk, and the whole bound
                // whatever the page cache's misses cost (the buffer's shape is what is measured).
                .withKeepColdArrivals(true).withFullBoundMissMicros(0))
            : CompactionSettings.Table.defaults()))
        .build());
    SplittableRandom r = new SplittableRandom(7);
    byte[] value = new byte[VALUE_BYTES];
    for (int i = 0; i < KEYS; i++) {
      db.put(key("k", (int) ((i * 7_919L) % KEYS)), value); // every key once, in scattered order
    }
    for (int round = 0; round < ROUNDS; round++) {
      for (int i = 0; i < HOT; i++) {
        r.nextBytes(value);
        db.put(key("k", r.nextInt(HOT)), value);
      }
      db.flush();
      awaitCompactions();
    }
    hot = new byte[4096][];
    cold = new byte[4096][];
    absent = new byte[4096][];
    for (int i = 0; i < hot.length; i++) {
      hot[i] = key("k", r.nextInt(HOT));
      cold[i] = key("k", HOT + r.nextInt(KEYS - HOT));
      absent[i] = key("x", r.nextInt(KEYS));
    }
    for (byte[][] keys : new byte[][][] {hot, cold, absent}) { // every block the reads need, cached
      for (byte[] k : keys) {
        db.get(k);
      }
    }
    System.out.println("\n" + describe(db.stats()));
  }

  /** Waits until no compaction runs and no level wants one, so the shape is the churn's end. */
  private void awaitCompactions() throws InterruptedException {
    for (int i = 0; i < 6_000; i++) {
      Stats s = db.stats();
      if (s.compaction().running() == 0 && s.levels().stream().allMatch(l -> l.score() < 1)) {
        return;
      }
      Thread.sleep(10);
    }
    throw new IllegalStateException("compactions did not settle in 60 s: " + db.stats());
  }

  private static String describe(Stats s) {
    StringBuilder sb = new StringBuilder("files by level:");
    s.levels().forEach(l -> sb.append(' ').append(l.files()));
    sb.append("; buffer: ").append(s.buffer().files()).append(" files in ").append(s.buffer().runs())
        .append(" runs, ").append(s.buffer().removedMarkers()).append(" markers");
    return sb.toString();
  }

  private static byte[] key(String prefix, int i) {
    return String.format("%s%010d", prefix, i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  @State(Scope.Thread)
  public static class Cursor {
    int next;
  }

  @Benchmark
  public byte[] hot(Cursor c) {
    return db.get(hot[c.next++ & 4095]);
  }

  @Benchmark
  public byte[] cold(Cursor c) {
    return db.get(cold[c.next++ & 4095]);
  }

  @Benchmark
  public byte[] absent(Cursor c) {
    return db.get(absent[c.next++ & 4095]);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    db.close();
    DirectorySize.deleteRecursively(dir);
  }
}

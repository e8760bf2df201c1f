package dev.cairn.bench.micro;

import dev.cairn.bench.engine.BenchEngine;
import dev.cairn.bench.engine.EngineMetrics;
import dev.cairn.bench.engine.EngineSettings;
import dev.cairn.bench.engine.Engines;
import dev.cairn.bench.run.DirectorySize;
import dev.cairn.bench.workload.Keys;
import dev.cairn.bench.workload.ScrambledZipfian;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * The runner's {@code zipfian} and {@code ycsb-c} reads in miniature, side by side for Cairn and
 * RocksDB: each engine at its own defaults with the runner's shared budgets (its {@code
 * --engine-defaults} mode: 32 MiB memtable, 4 KiB blocks, 10 Bloom bits, no compression), loaded
 * with {@code records} 1 KiB values in scattered order, the data about eight times the block
 * cache, then read by two threads with scrambled Zipfian 0.99 keys, the page cache warm. About a
 * quarter of the reads miss the block cache, so this measures the whole read path (memtables,
 * filters, table handles, block-cache probes, and on a miss the read, checksum and insert)
 * without the runner's spread: no writer, no compaction while measuring, the same keys each
 * trial, every engine through the runner's own {@link BenchEngine}. {@code hit} reads only keys
 * whose blocks are cached (4,096 of the generator's keys, read before measuring), so the pair
 * separates the miss path's cost from the rest. {@code scan} is the runner's {@code scan}: an
 * iterator from a scrambled Zipfian start, 1 to 100 entries, each key and value taken; {@code
 * scanBackward} the same walked backward ({@code seekForPrev}, then {@code prev}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(2)
@Threads(2)
public class DbReadPathBench {
  private static final int VALUE_BYTES = 1024;

  @Param({"cairn-table", "rocksdb"})
  public String engine;

  /** Records loaded; 1 KiB values, so the data is about this many KiB. */
  @Param({"1000000"})
  public int records;

  /** Block cache MiB: 128 MiB against about 1 GiB of data, the runner's defaults mode. */
  @Param({"128"})
  public int cacheMb;

  private Path dir;
  private BenchEngine db;
  private ScrambledZipfian zipfian;
  private byte[][] cachedKeys;

  @Setup(Level.Trial)
  public void setup() throws IOException, InterruptedException {
    dir = Files.createTempDirectory("cairn-dbreadpath-bench");
    db = Engines.create(engine);
    db.open(dir, new EngineSettings((long) cacheMb << 20, 32L << 20, 4096, 10, 0, 0, 0, false,
        0, 0, 0, records, VALUE_BYTES, 0, true, 0, false));
    SplittableRandom r = new SplittableRandom(42);
    byte[] value = new byte[VALUE_BYTES];
    for (int i = 0; i < records; i++) {
      r.nextBytes(value);
      db.put(Keys.encode((i * 7_919L) % records), value); // every key once, scattered
    }
    db.flush();
    awaitQuietCompactions();
    zipfian = new ScrambledZipfian(records, 0.99);
    SplittableRandom keys = new SplittableRandom(11);
    cachedKeys = new byte[4096][];
    for (int i = 0; i < cachedKeys.length; i++) {
      cachedKeys[i] = Keys.encode(zipfian.next(keys));
    }
    SplittableRandom warm = new SplittableRandom(13);
    for (int i = 0; i < 2 * records; i++) { // the cache's steady state, and the page cache warm
      db.get(Keys.encode(zipfian.next(warm)));
    }
    for (byte[] k : cachedKeys) {
      db.get(k);
    }
  }

  /**
   * Waits until the engine reports no compaction running or owed (two looks in a row), or, for an
   * engine that cannot tell, until it has written no compaction output for five seconds.
   */
  private void awaitQuietCompactions() throws InterruptedException {
    boolean engineTells = db.compactionsPending().isPresent();
    int needed = engineTells ? 2 : 20; // looks 250 ms apart
    long lastWritten = -1;
    for (int quiet = 0, i = 0; quiet < needed && i < 1_200; i++) {
      Thread.sleep(250);
      boolean busy;
      if (engineTells) {
        busy = db.compactionsPending().orElse(true);
      } else {
        long written = db.metrics().compactionBytesWritten();
        busy = written != lastWritten;
        lastWritten = written;
      }
      quiet = busy ? 0 : quiet + 1;
    }
    System.out.printf("%n%s settled: %d files in L0%n", engine, db.l0Files());
  }

  @State(Scope.Thread)
  public static class Reader {
    private static final AtomicLong SEEDS = new AtomicLong(17);
    final SplittableRandom random = new SplittableRandom(SEEDS.getAndIncrement());
    int next;
  }

  @Benchmark
  public byte[] zipfian(Reader reader) {
    return db.get(Keys.encode(zipfian.next(reader.random)));
  }

  @Benchmark
  public int scan(Reader reader) {
    return db.scan(Keys.encode(zipfian.next(reader.random)), 1 + reader.random.nextInt(100));
  }

  /** {@link #scan} backward: from the last key at or before the start, 1 to 100 entries. */
  @Benchmark
  public int scanBackward(Reader reader) {
    return db.scanBackward(Keys.encode(zipfian.next(reader.random)), 1 + reader.random.nextInt(100));
  }

  @Benchmark
  public byte[] hit(Reader reader) {
    return db.get(cachedKeys[reader.next++ & 4095]);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    EngineMetrics m = db.metrics();
    System.out.printf("%n%s block cache: %d hits, %d misses%n", engine, m.blockCacheHits(), m.blockCacheMisses());
    db.close();
    DirectorySize.deleteRecursively(dir);
  }
}

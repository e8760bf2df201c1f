package dev.cairn.bench.micro;

import dev.cairn.fs.IoTag;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.fs.WritableFile;
import dev.cairn.key.InternalKey;
import dev.cairn.key.ValueType;
import dev.cairn.table.TableBuilder;
import dev.cairn.table.TableOptions;
import dev.cairn.table.TableReader;
import dev.cairn.table.TableSummary;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The index search of a point read alone: a random key's table in a level of {@code tables}
 * tables that split the key space, then that table's index searched for the key (through {@code
 * TableReader.approximateOffsetOf}, which is the search and an array read). The keys are the
 * runner's (16 ASCII digits); each table holds {@code 10 x separators} of them in 256-byte blocks
 * of empty values (small on disk; only the index matters here), about 9,400 separators a table at
 * the default, as a 32-64 MiB table of 4 KiB blocks has 8,000-16,000: together far more index
 * than the CPU caches hold, as in a 1 GB database, so a search pays for the memory it touches.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(3)
public class IndexSeekBench {
  @Param({"16"})
  public int tables;

  /** A tenth of the keys per table (about 17 keys fill a 256-byte block). */
  @Param({"16000"})
  public int separators;

  private Path dir;
  private TableReader[] readers;
  private long keysPerTable;
  private long totalKeys;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    dir = Files.createTempDirectory("cairn-index-seek-bench");
    LocalFileSystem fs = new LocalFileSystem();
    TableOptions options = new TableOptions(256, 16, 0);
    readers = new TableReader[tables];
    keysPerTable = 0;
    long id = 0;
    for (int t = 0; t < tables; t++) {
      Path path = dir.resolve(String.format("%06d.sst", t + 1));
      TableSummary summary;
      try (WritableFile f = fs.create(path, IoTag.FLUSH)) {
        TableBuilder b = new TableBuilder(f, options);
        // Keys spread over the id space, as a level's tables split it; about 10 per 256-byte block.
        long perTable = separators * 10L;
        for (long i = 0; i < perTable; i++, id++) {
          b.add(InternalKey.encode(key(id * 7), id + 1, ValueType.VALUE), new byte[0]);
        }
        keysPerTable = perTable;
        summary = b.finish();
      }
      readers[t] = TableReader.open(fs.openReadable(path), path.getFileName().toString(), t + 1,
          summary.footerOffset(), null);
    }
    totalKeys = id;
    makeTargets();
    System.out.printf("%n%d tables, %d data blocks in the first%n", tables, readers[0].dataBlockCount());
  }

  private static byte[] key(long n) {
    return String.format("%016d", n).getBytes(StandardCharsets.US_ASCII);
  }

  /** Seek keys made ahead (formatting one costs more than the search), read in order. */
  private static final int TARGETS = 1 << 16;

  private byte[][] targets;
  private TableReader[] targetTables;
  private int next;

  private void makeTargets() {
    SplittableRandom random = new SplittableRandom(7);
    targets = new byte[TARGETS][];
    targetTables = new TableReader[TARGETS];
    for (int i = 0; i < TARGETS; i++) {
      long id = random.nextLong(totalKeys);
      targets[i] = InternalKey.seekKey(key(id * 7 + random.nextInt(7)), InternalKey.MAX_SEQUENCE);
      targetTables[i] = readers[(int) (id / keysPerTable)];
    }
  }

  @Benchmark
  public long seek() {
    int i = next++ & (TARGETS - 1);
    return targetTables[i].approximateOffsetOf(targets[i]);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    for (TableReader r : readers) {
      r.close();
    }
    try (var files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Files.delete(p);
      }
    }
    Files.delete(dir);
  }
}

package dev.cairn.bench.micro;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.bench.run.DirectorySize;
import dev.cairn.bench.workload.Keys;
import dev.cairn.fs.LocalFileSystem;
import java.io.IOException;
import java.lang.management.ManagementFactory;
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
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * One L0 -> base-level compaction, the merge a load leaves behind, side by side for Cairn and
 * RocksDB: {@code files} L0 tables of {@code recordsPerFile} 1 KiB values each (random 16-byte
 * runner keys, so every table spans the whole key range and every key is new), merged by a
 * manual compaction into one sorted run below. Nothing else runs: automatic compactions are held
 * off (Cairn: L0 triggers at their maximum; RocksDB: {@code disable_auto_compactions}), both
 * write their log as usual, the inputs sit in the page cache with nothing left to write back
 * ({@code sync} before each merge), and each engine writes no compression, 4 KiB blocks and 10 Bloom
 * bits as in the runner. One operation is one whole compaction, timed once
 * ({@link Mode#SingleShotTime}) on a database built afresh before it; the compaction bytes each
 * engine wrote are printed, so that time per operation becomes MB/s, and so is the CPU time the
 * process spent on it (both engines sync each output once, so the elapsed time includes the
 * device's writing; the CPU time is the merge's own cost).
 *
 * <p>What it measures is the compaction thread's speed: how fast the load's backlog drains
 * (docs/results/issue21, the direct-read scans) whatever decides how much backlog there is.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 4)
@Measurement(iterations = 8)
@Fork(2)
public class CompactionBench {
  private static final int VALUE_BYTES = 1024;

  @Param({"cairn-table", "rocksdb"})
  public String engine;

  /** L0 tables merged. */
  @Param({"4"})
  public int files;

  /** Entries per L0 table: 32,768 x (16 + 1,024) bytes is about a 32 MiB memtable. */
  @Param({"32768"})
  public int recordsPerFile;

  /** Runner keys are drawn from this range: with 131,072 drawn, a repeat is rare. */
  private static final long KEY_RANGE = 1_000_000_000_000L;

  /** What the benchmark needs of an engine: load, flush one L0 table, merge, count, close. */
  private interface Subject extends AutoCloseable {
    void put(byte[] key, byte[] value) throws RocksDBException;

    void flush() throws RocksDBException;

    void compactAll() throws RocksDBException;

    long compactionBytesWritten();

    @Override
    void close();
  }

  private Path dir;
  private Subject db;
  private long seed = 1;
  /** The process's CPU time when the measured merge starts. */
  private long cpuBefore;

  @Setup(Level.Iteration)
  public void build() throws IOException, RocksDBException {
    dir = Files.createTempDirectory("cairn-compaction-bench");
    db = switch (engine) {
      case "cairn-table" -> new CairnSubject(dir);
      case "rocksdb" -> new RocksSubject(dir);
      default -> throw new IllegalArgumentException("unknown engine " + engine + " (cairn-table, rocksdb)");
    };
    SplittableRandom random = new SplittableRandom(seed++);
    byte[] value = new byte[VALUE_BYTES];
    for (int f = 0; f < files; f++) {
      for (int i = 0; i < recordsPerFile; i++) {
        random.nextBytes(value);
        db.put(Keys.encode(random.nextLong(KEY_RANGE)), value);
      }
      db.flush();
    }
    writeBackEverything();
    cpuBefore = processCpuNanos();
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /**
   * Both engines wrote a log and the L0 tables; {@code sync(1)} writes those dirty pages back
   * now, so that the measured merge does not share the device with their write-back.
   */
  private static void writeBackEverything() throws IOException {
    try {
      int exit = new ProcessBuilder("sync").inheritIO().start().waitFor();
      if (exit != 0) {
        throw new IOException("sync exited with " + exit);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for sync", e);
    }
  }

  /** The measured merge. */
  @Benchmark
  public void compact() throws RocksDBException {
    db.compactAll();
  }

  @TearDown(Level.Iteration)
  public void close() throws IOException {
    long cpu = processCpuNanos() - cpuBefore;
    long written = db.compactionBytesWritten();
    db.close();
    db = null;
    System.out.printf(" [%s wrote %.1f MiB, %.0f ms of CPU] ", engine, written / (double) (1 << 20), cpu / 1e6);
    DirectorySize.deleteRecursively(dir);
  }

  private static final class CairnSubject implements Subject {
    private final Cairn cairn;

    CairnSubject(Path dir) {
      cairn = Cairn.open(dir, Options.builder()
          .memtableBytes(64L << 20) // above one file's records: only the explicit flushes cut tables
          .blockBytes(4096)
          .bloomBitsPerKey(10)
          .blockCacheBytes(32L << 20)
          // Held off: no L0 compaction starts before the measured one.
          .l0CompactionTrigger(1000).l0SlowdownTrigger(1000).l0StopTrigger(1000)
          // Cairn's defaults at a 32 MiB memtable (docs/decisions/0008, 0009), set explicitly
          // because the derived ones follow the raised L0 trigger.
          .baseLevelBytes(128L << 20)
          .targetFileBytes(32L << 20)
          .fileSystem(new LocalFileSystem(false))
          .build());
    }

    @Override
    public void put(byte[] key, byte[] value) {
      cairn.put(key, value);
    }

    @Override
    public void flush() {
      cairn.flush();
    }

    @Override
    public void compactAll() {
      cairn.compactRange(null, null);
    }

    @Override
    public long compactionBytesWritten() {
      return cairn.stats().compaction().bytesWritten();
    }

    @Override
    public void close() {
      cairn.close();
    }
  }

  private static final class RocksSubject implements Subject {
    private final Statistics statistics = new Statistics();
    private final LRUCache cache = new LRUCache(32L << 20);
    private final BloomFilter bloom = new BloomFilter(10, false);
    private final FlushOptions waitForFlush = new FlushOptions().setWaitForFlush(true);
    private final org.rocksdb.Options options;
    private final RocksDB rocks;

    RocksSubject(Path dir) throws RocksDBException {
      options = new org.rocksdb.Options()
          .setCreateIfMissing(true)
          .setStatistics(statistics)
          .setTableFormatConfig(new BlockBasedTableConfig()
              .setBlockSize(4096).setBlockCache(cache).setFilterPolicy(bloom))
          .setCompressionType(CompressionType.NO_COMPRESSION)
          .setBottommostCompressionType(CompressionType.NO_COMPRESSION)
          .setWriteBufferSize(64L << 20)
          .setDisableAutoCompactions(true);
      rocks = RocksDB.open(options, dir.toString());
    }

    @Override
    public void put(byte[] key, byte[] value) throws RocksDBException {
      rocks.put(key, value);
    }

    @Override
    public void flush() throws RocksDBException {
      rocks.flush(waitForFlush);
    }

    @Override
    public void compactAll() throws RocksDBException {
      rocks.compactRange();
    }

    @Override
    public long compactionBytesWritten() {
      return statistics.getTickerCount(TickerType.COMPACT_WRITE_BYTES);
    }

    @Override
    public void close() {
      rocks.close();
      options.close();
      waitForFlush.close();
      statistics.close();
      cache.close();
      bloom.close();
    }
  }
}

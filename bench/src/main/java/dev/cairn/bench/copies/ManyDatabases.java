package dev.cairn.bench.copies;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.SharedResources;
import dev.cairn.Stats;
import dev.cairn.bench.run.DirectorySize;
import dev.cairn.bench.workload.Keys;
import dev.cairn.bench.workload.Values;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Part 3: many databases in one JVM, loaded at once by a fixed pool of writers, either each on
 * its own resources or all on one {@link SharedResources} (docs/operations.md, "Many databases in
 * one process"). Every database opens with {@code Options.defaults()} (32 MiB memtables, up to
 * two waiting for their flush), so the two configurations differ only in what the shared
 * resources replace: the caches, the background threads and the memtables' total.
 */
final class ManyDatabases {
  /** Writer threads, whatever the number of databases: writer w puts into databases w, w + 4, ... */
  static final int WRITERS = 4;
  /** The shared configuration's one block cache. */
  static final long SHARED_CACHE_BYTES = 256L << 20;
  /** The shared configuration's memtable budget, across every database. */
  static final long SHARED_MEMTABLE_BUDGET_BYTES = 256L << 20;
  /** The shared configuration's flush and compaction threads (one flushes, three compact). */
  static final int SHARED_BACKGROUND_THREADS = 4;

  /** How the databases get their cache, threads and memtable memory. */
  enum Configuration {
    /** {@code Cairn.open(dir, options)} each: a 32 MiB cache, two threads and up to 96 MiB of memtables apiece. */
    SEPARATE("separate"),
    /** {@code Cairn.open(dir, options, shared)}: one 256 MiB cache, four threads, a 256 MiB memtable budget. */
    SHARED("shared");

    private final String label;

    Configuration(String label) {
      this.label = label;
    }

    String label() {
      return label;
    }
  }

  private ManyDatabases() {}

  /**
   * Opens {@code s.databases()} databases under {@code dir} (deleted at the end) in {@code
   * configuration}, writes {@code s.manyRecords()} keys into each and measures the load.
   */
  static ManyFigures measure(Configuration configuration, Path dir, CopiesSettings s, PrintStream progress)
      throws IOException, InterruptedException {
    DirectorySize.deleteRecursively(dir); // an interrupted run's
    System.gc(); // the earlier parts' garbage out of the heap figures
    int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
    long directBefore = MemorySampler.directBytes();
    List<Cairn> dbs = new ArrayList<>();
    SharedResources shared = configuration == Configuration.SHARED ? SharedResources.builder()
        .blockCacheBytes(SHARED_CACHE_BYTES)
        .memtableBudgetBytes(SHARED_MEMTABLE_BUDGET_BYTES)
        .backgroundThreads(SHARED_BACKGROUND_THREADS)
        .build() : null;
    try (MemorySampler sampler = MemorySampler.start()) {
      for (int d = 0; d < s.databases(); d++) {
        Path db = dir.resolve("db-" + d);
        Options options = Options.builder().errorIfExists(true).build();
        dbs.add(shared == null ? Cairn.open(db, options) : Cairn.open(db, options, shared));
      }
      long start = System.nanoTime();
      writeAll(dbs, s.manyRecords(), new Values(s.valueBytes(), s.seed()), s.seed());
      double loadSeconds = (System.nanoTime() - start) / 1e9;
      // Each database's own cache summed; on a shared cache a database's Stats.cache() gives the
      // whole cache's bytes, so the shared one is counted once.
      List<Stats> stats = dbs.stream().map(Cairn::stats).toList();
      long cacheBytes = shared != null ? shared.cacheStats().usedBytes()
          : stats.stream().mapToLong(st -> st.cache().usedBytes()).sum();
      long memtableBytes = stats.stream().mapToLong(st -> st.memtable().activeBytes()).sum();
      double stallSeconds = stats.stream().mapToLong(st -> st.stalls().totalMicros()).sum() / 1e6;
      MemorySampler.Peaks peaks = sampler.stop();
      ManyFigures f = new ManyFigures(configuration.label(), dbs.size(), s.manyRecords() * dbs.size(), loadSeconds,
          peaks.heapBytes(), sampler.heapAfterCollection(), cacheBytes, memtableBytes, directBefore,
          peaks.directBytes(), threadsBefore, peaks.threads(), stallSeconds);
      progress.println(f.line());
      return f;
    } finally {
      dbs.forEach(Cairn::close);
      if (shared != null) {
        shared.close(); // after the databases, which it refuses otherwise
      }
      DirectorySize.deleteRecursively(dir);
    }
  }

  /**
   * Writes keys {@code [0, records)} into every database from {@link #WRITERS} threads (fewer for
   * fewer databases), each writer putting one key into each of its databases in turn, so that all
   * of them fill at once.
   */
  private static void writeAll(List<Cairn> dbs, long records, Values values, long seed) throws InterruptedException {
    int writers = Math.min(WRITERS, dbs.size());
    SpreadOrder order = new SpreadOrder(records);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int first = w;
      Thread t = new Thread(() -> {
        SplittableRandom random = new SplittableRandom(seed + first);
        try {
          for (long i = 0; i < records && failure.get() == null; i++) {
            byte[] key = Keys.encode(order.id(i));
            for (int d = first; d < dbs.size(); d += writers) {
              dbs.get(d).put(key, values.next(random));
            }
          }
        } catch (RuntimeException | Error e) {
          failure.compareAndSet(null, e);
        }
      }, "copies-writer-" + w);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    if (failure.get() != null) {
      throw new IllegalStateException("a writer failed: " + failure.get(), failure.get());
    }
  }

  /**
   * The ids {@code [0, n)} each once, consecutive ones far apart ({@code i * stride mod n}, the
   * stride near n over the golden ratio and prime to n): every memtable spans the key range, so
   * tables overlap as a random load's do, without an array of {@code n} ids per database on the
   * heap the figures measure.
   */
  static final class SpreadOrder {
    private final long n;
    private final long stride;

    SpreadOrder(long n) {
      this.n = n;
      long s = Math.max(1, Math.round(n * 0.6180339887498949));
      while (gcd(s, n) != 1) {
        s++;
      }
      this.stride = s;
    }

    /** The {@code i}-th id; {@code i * stride} fits a long for every n the flags admit (up to 10^8). */
    long id(long i) {
      return i * stride % n;
    }

    private static long gcd(long a, long b) {
      return b == 0 ? a : gcd(b, a % b);
    }
  }
}

package dev.cairn.tools;

import dev.cairn.Cairn;
import dev.cairn.CairnException;
import dev.cairn.Options;
import dev.cairn.WriteBatch;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * {@code cairn demo}: loads N records in random order into a fresh database, then reads every key
 * back while a writer keeps overwriting, checks every value it reads, and prints the statistics
 * table. Values embed their key and a version so that a wrong value is detected, not just a
 * missing one.
 *
 * <p>The demo deletes only what it created: {@code --dir} must be new or empty, and is kept
 * afterwards for a look with the other commands; without it the demo works in a temporary
 * directory of its own and removes it at the end.
 */
final class Demo {
  private Demo() {}

  static void run(DemoConfig config, PrintStream out) {
    Path dir = config.dir() != null ? requireNewOrEmpty(config.dir()) : createTemporaryDirectory();
    try {
      runIn(dir, config, out);
    } finally {
      if (config.dir() == null) {
        deleteRecursively(dir);
      }
    }
    out.println(config.dir() != null ? "\nthe database is kept in " + dir
        : "\nthe demo's temporary database was removed (--dir DIR keeps one)");
  }

  private static void runIn(Path dir, DemoConfig config, PrintStream out) {
    Options options = Options.builder().backgroundThreads(config.backgroundThreads())
        .compaction(config.compaction()).build();
    long t0 = System.nanoTime();
    try (Cairn db = Cairn.open(dir, options)) {
      load(db, config, out);
      double loadSeconds = (System.nanoTime() - t0) / 1e9;
      out.printf("loaded %,d records of %d bytes in %.1f s (%,.0f writes/s)%n", config.records(),
          config.valueBytes(), loadSeconds, config.records() / loadSeconds);
      readBackUnderWrites(db, config, out);
      out.println();
      out.print(db.stats());
    }
  }

  private static void load(Cairn db, DemoConfig config, PrintStream out) {
    int[] order = shuffled(config.records(), 42);
    WriteBatch batch = new WriteBatch();
    for (int i = 0; i < order.length; i++) {
      batch.put(key(order[i]), value(order[i], 0, config.valueBytes()));
      if (batch.count() == 100 || i == order.length - 1) {
        db.write(batch);
        batch.clear();
      }
    }
  }

  private static void readBackUnderWrites(Cairn db, DemoConfig config, PrintStream out) {
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong overwrites = new AtomicLong();
    Thread writer = new Thread(() -> {
      SplittableRandom rnd = new SplittableRandom(7);
      while (!stop.get()) {
        int k = rnd.nextInt(config.records());
        db.put(key(k), value(k, 1, config.valueBytes()));
        overwrites.incrementAndGet();
      }
    }, "demo-writer");
    writer.start();
    long t0 = System.nanoTime();
    long found = 0;
    try {
      for (int k : shuffled(config.records(), 43)) {
        byte[] v = db.get(key(k));
        if (v == null) {
          throw new CairnException("demo: key " + k + " is missing");
        }
        if (ByteBuffer.wrap(v).getInt() != k) {
          throw new CairnException("demo: key " + k + " returned the value of another key");
        }
        found++;
      }
    } finally {
      stop.set(true);
      try {
        writer.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    out.printf("read back %,d of %,d keys in %.1f s (%,.0f reads/s) under %,d concurrent overwrites; every value checked%n",
        found, config.records(), seconds, found / seconds, overwrites.get());
  }

  static byte[] key(int k) {
    return String.format("key%012d", k).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }

  /** The key number, the version, then pseudo-random filler. */
  static byte[] value(int k, int version, int size) {
    byte[] v = new byte[Math.max(8, size)];
    new Random(k * 31L + version).nextBytes(v);
    ByteBuffer.wrap(v).putInt(k).putInt(version);
    return v;
  }

  private static int[] shuffled(int n, long seed) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    return a;
  }

  /** Refuses a directory that holds anything: the demo never deletes what it did not create. */
  private static Path requireNewOrEmpty(Path dir) {
    if (Files.exists(dir)) {
      if (!Files.isDirectory(dir)) {
        throw new CairnTool.UsageException(dir + " exists and is not a directory; choose another --dir");
      }
      try (Stream<Path> s = Files.list(dir)) {
        if (s.findAny().isPresent()) {
          throw new CairnTool.UsageException(dir + " is not empty; the demo needs a new or empty --dir"
              + " (it deletes nothing it did not create)");
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return dir;
  }

  private static Path createTemporaryDirectory() {
    try {
      return Files.createTempDirectory("cairn-demo-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Removes the temporary directory the demo created, with everything the engine wrote there. */
  private static void deleteRecursively(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

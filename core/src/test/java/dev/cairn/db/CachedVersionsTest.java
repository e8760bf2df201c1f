package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.db.base.CachedVersions;
import dev.cairn.fs.FileNames;
import dev.cairn.util.ThreadStripes;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import dev.cairn.version.VersionSet;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Point reads keep a reference to the current version per thread stripe (CachedVersions): the
 * next read reuses it, an install drops every one so the replaced version's files can go, a
 * version put back after the scrape is dropped by the next read, close leaves none, and readers
 * sharing stripes never see a write go missing while flushes and compactions install versions.
 */
class CachedVersionsTest {
  private static final int KEYS = 400;

  @TempDir Path dir;

  /** VersionKeptTablesTest's small tables and high L0 triggers, at the default table cache. */
  private static Options options() {
    return VersionKeptTablesTest.options(Options.builder().build().tableCacheFiles());
  }

  private static byte[] key(int i) {
    return String.format("key%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static void writeAndFlush(Cairn db, String value) {
    for (int i = 0; i < KEYS; i++) {
      db.put(key(i), value.getBytes(StandardCharsets.UTF_8));
    }
    db.flush();
  }

  private static long oldestL0File(Version v) {
    List<FileMetaData> l0 = v.files(0);
    return l0.get(l0.size() - 1).number();
  }

  @Test
  void aReadKeepsTheCurrentVersionAndAnInstallDropsIt() throws Exception {
    try (DbImpl db = (DbImpl) Cairn.open(dir, options())) {
      writeAndFlush(db, "one");
      CachedVersions cached = db.engine().cachedVersions();
      VersionSet versions = db.engine().versions();
      assertEquals(0, cached.cachedCount(), "nothing cached before a read");
      assertArrayEquals("one".getBytes(StandardCharsets.UTF_8), db.get(key(7)));
      assertEquals(1, cached.cachedCount(), "the read kept its version for the next one");

      readOnAnotherStripe(db, key(8));
      assertEquals(2, cached.cachedCount(), "a thread of another stripe keeps a version in its slot");

      Version before = versions.current();
      long file = oldestL0File(before);
      db.compactRange(null, null);
      assertNotSame(before, versions.current());
      assertEquals(0, cached.cachedCount(), "the install dropped every cached reference");
      assertFalse(versions.liveFileNumbers().contains(file),
          "no cached reference keeps the replaced version (and its files) alive");
      awaitDeleted(db.engine().dir(), file);
      assertArrayEquals("one".getBytes(StandardCharsets.UTF_8), db.get(key(7)), "reads go on from the new version");
      assertEquals(1, cached.cachedCount());
    }
  }

  @Test
  void aReplacedVersionPutBackAfterTheScrapeIsDroppedByTheNextRead() {
    try (DbImpl db = (DbImpl) Cairn.open(dir, options())) {
      writeAndFlush(db, "one");
      VersionSet versions = db.engine().versions();
      // One stripe: every call below shares one slot, as threads of one stripe do.
      CachedVersions cached = new CachedVersions(versions, 1);
      Version first = cached.acquire(); // a read that began before the compaction
      assertSame(versions.current(), first);
      long file = oldestL0File(first);

      db.compactRange(null, null);
      cached.scrape(); // what the install does for the engine's own cache
      Version second = cached.acquire(); // a read that began after it, on the same stripe
      assertSame(versions.current(), second);
      assertNotSame(first, second);
      cached.release(first); // the first read ends: it fills the emptied slot with a replaced version
      cached.release(second); // the slot is taken: this read drops its reference
      assertEquals(1, cached.cachedCount());
      assertTrue(versions.liveFileNumbers().contains(file), "the slot still holds the replaced version");

      Version third = cached.acquire();
      assertSame(versions.current(), third, "a replaced version is never used");
      assertFalse(versions.liveFileNumbers().contains(file), "the read dropped the replaced version");
      cached.release(third);
      assertEquals(1, cached.cachedCount());

      cached.close();
      assertEquals(0, cached.cachedCount(), "close drops what the slots hold");
      Version afterClose = cached.acquire();
      cached.release(afterClose);
      assertEquals(0, cached.cachedCount(), "after close a read keeps nothing");
    }
  }

  @Test
  void stripesArePowersOfTwo() {
    assertThrows(IllegalArgumentException.class, () -> new CachedVersions(null, 3));
    assertThrows(IllegalArgumentException.class, () -> new CachedVersions(null, 0));
  }

  @Test
  void closeDropsTheCachedReferences() {
    DbImpl db = (DbImpl) Cairn.open(dir, options());
    writeAndFlush(db, "one");
    db.get(key(1));
    CachedVersions cached = db.engine().cachedVersions();
    assertEquals(1, cached.cachedCount());
    db.close();
    assertEquals(0, cached.cachedCount());
  }

  /**
   * More reader threads than stripes (they share slots, the protocol's every branch taken) read
   * while a writer writes and flushes and compactions install versions: no read may find a key
   * older than its last acknowledged write.
   */
  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void readersSharingStripesNeverMissAnAcknowledgedWrite() throws Exception {
    int readers = 3 * ThreadStripes.count();
    long seed = System.nanoTime();
    AtomicLongArray acknowledged = new AtomicLongArray(KEYS);
    AtomicBoolean done = new AtomicBoolean();
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    try (DbImpl db = (DbImpl) Cairn.open(dir, options())) {
      List<Thread> threads = new ArrayList<>();
      for (int r = 0; r < readers; r++) {
        long readerSeed = seed + r;
        threads.add(ConcurrencyTest.thread("reader-" + r, failures, () -> {
          SplittableRandom rnd = new SplittableRandom(readerSeed);
          while (!done.get()) {
            int k = rnd.nextInt(KEYS);
            long floor = acknowledged.get(k);
            byte[] v = db.get(key(k));
            long seen = v == null ? 0 : ByteBuffer.wrap(v).getLong();
            if (seen < floor) {
              throw new AssertionError("key " + k + " read " + seen + " after " + floor + " was acknowledged");
            }
          }
        }));
      }
      threads.forEach(Thread::start);
      for (long round = 1; round <= 40 && failures.isEmpty(); round++) {
        for (int k = 0; k < KEYS; k++) {
          db.put(key(k), ByteBuffer.allocate(64).putLong(round).array());
          acknowledged.set(k, round);
        }
        if (round % 4 == 0) {
          db.compactRange(null, null);
        } else {
          db.flush();
        }
      }
      done.set(true);
      for (Thread t : threads) {
        t.join();
      }
      if (!failures.isEmpty()) {
        AssertionError e = new AssertionError("seed " + seed, failures.peek());
        failures.stream().skip(1).forEach(e::addSuppressed);
        throw e;
      }
      assertTrue(db.engine().cachedVersions().cachedCount() > 0, "the readers read through cached versions");
    }
  }

  /**
   * Reads {@code key} on a new thread whose stripe is not this thread's. Stripes are numbered per
   * JVM in the order threads first ask, so which stripe a new thread gets depends on the tests
   * that ran before; of {@code ThreadStripes.count()} new threads in a row, one has another.
   */
  private static void readOnAnotherStripe(Cairn db, byte[] key) throws InterruptedException {
    int stripes = ThreadStripes.count();
    int mine = ThreadStripes.of(stripes);
    AtomicBoolean read = new AtomicBoolean();
    for (int attempt = 0; attempt < stripes && !read.get(); attempt++) {
      Thread t = new Thread(() -> {
        if (ThreadStripes.of(stripes) != mine) {
          db.get(key);
          read.set(true);
        }
      });
      t.start();
      t.join();
    }
    assertTrue(read.get(), "no new thread got a stripe other than " + mine);
  }

  private static void awaitDeleted(Path dir, long fileNumber) throws InterruptedException {
    Path table = dir.resolve(FileNames.table(fileNumber));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (Files.exists(table) && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertFalse(Files.exists(table), table + " not deleted within 10 s");
  }
}

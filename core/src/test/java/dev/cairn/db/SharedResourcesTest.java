package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.SharedResources;
import dev.cairn.Stats;
import dev.cairn.fs.ForwardingFileSystem;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.fs.WritableFile;
import dev.cairn.testing.EngineCombo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SharedResources}: databases on one cache keep apart blocks of the same file number, each
 * counts its own cache hits, closing one drops its blocks only, their background work runs on the
 * shared threads alone, and the memtable budget flushes early what the databases hold together.
 */
class SharedResourcesTest {
  private static final int KEYS = 3000;

  @TempDir Path tmp;

  private static Options small() {
    return Options.builder().memtableBytes(64 << 10).targetFileBytes(32 << 10).baseLevelBytes(128 << 10)
        .blockBytes(1024).l0CompactionTrigger(2).build();
  }

  @Test
  void databasesShareTheCacheAndThreadsAndKeepTheirBlocksApart() {
    List<Cairn> dbs = new ArrayList<>();
    try (SharedResources shared = SharedResources.builder().blockCacheBytes(8 << 20).backgroundThreads(3).build()) {
      for (int d = 0; d < 3; d++) {
        Cairn db = Cairn.open(tmp.resolve("db" + d), small(), shared);
        dbs.add(db);
        // The same keys in each, so that each has tables of the same numbers holding other values.
        for (int i = 0; i < KEYS; i++) {
          db.put(key(i), value(d, i));
        }
        db.flush();
      }
      assertEquals(3, shared.openDatabases());
      assertTrue(threadNames().stream().noneMatch(n -> n.startsWith("cairn-bg-")),
          "no database started threads of its own: " + threadNames());
      assertTrue(threadNames().stream().anyMatch(n -> n.startsWith("cairn-shared-flush-")), threadNames().toString());

      for (int round = 0; round < 2; round++) { // the second round reads from the cache
        for (int d = 0; d < 2; d++) { // the third database is not read
          for (int i = 0; i < KEYS; i += 7) {
            assertArrayEquals(value(d, i), dbs.get(d).get(key(i)), "database " + d + ", key " + i);
          }
        }
      }
      Stats.Flush unused = dbs.get(2).stats().flush();
      assertTrue(unused.count() > 0);
      assertEquals(0, dbs.get(2).stats().cache().hits() + dbs.get(2).stats().cache().misses(),
          "a database counts its own lookups only");
      long hits = dbs.get(0).stats().cache().hits() + dbs.get(1).stats().cache().hits();
      assertTrue(hits > 0);
      assertTrue(shared.cacheStats().hits() >= hits, shared.cacheStats() + " against " + hits);

      long before = shared.cacheStats().usedBytes();
      dbs.get(0).close();
      assertEquals(2, shared.openDatabases());
      assertTrue(shared.cacheStats().usedBytes() < before, "closing a database drops its blocks");
      IllegalStateException inUse = assertThrows(IllegalStateException.class, shared::close);
      assertTrue(inUse.getMessage().contains("2 database(s)"), inUse.getMessage());
      for (int i = 0; i < KEYS; i += 11) {
        assertArrayEquals(value(1, i), dbs.get(1).get(key(i)), "the others go on");
      }
      dbs.get(1).close();
      dbs.get(2).close();
    }
    try (Cairn reopened = Cairn.open(tmp.resolve("db1"), small())) {
      assertArrayEquals(value(1, 5), reopened.get(key(5)));
    }
  }

  @Test
  void theMemtableBudgetHoldsWhileSeveralDatabasesWriteAtOnce() throws Exception {
    Options bigMemtables = Options.builder().memtableBytes(8 << 20).build();
    long budget = 2 << 20;
    try (SharedResources shared = SharedResources.builder().memtableBudgetBytes(budget).build()) {
      List<Cairn> dbs = new ArrayList<>();
      for (int d = 0; d < 3; d++) {
        dbs.add(Cairn.open(tmp.resolve("db" + d), bigMemtables, shared));
      }
      AtomicLong most = new AtomicLong();
      AtomicBoolean writing = new AtomicBoolean(true);
      Thread sampler = new Thread(() -> {
        while (writing.get()) {
          most.accumulateAndGet(shared.memtableBytes(), Math::max);
        }
      });
      sampler.start();
      List<Thread> writers = new ArrayList<>();
      for (int d = 0; d < 3; d++) {
        Cairn db = dbs.get(d);
        writers.add(new Thread(() -> {
          byte[] pad = new byte[1000];
          for (int i = 0; i < 3000; i++) { // 3 MB each, 9 MB in all: no 8 MiB memtable fills
            db.put(key(i), pad);
          }
        }));
      }
      writers.forEach(Thread::start);
      for (Thread w : writers) {
        w.join();
      }
      writing.set(false);
      sampler.join();
      // A writer checks the budget once per write group, so the total may pass it by a group or two.
      assertTrue(most.get() <= budget + (256 << 10), "the memtables held " + most.get() + " of a " + budget + " budget");
      long flushes = 0;
      for (Cairn db : dbs) {
        flushes += db.stats().flush().count();
      }
      assertTrue(flushes >= 4, "the budget flushed memtables no database filled: " + flushes);
      for (int d = 0; d < 3; d++) {
        for (int i = 0; i < 3000; i += 13) {
          assertEquals(1000, dbs.get(d).get(key(i)).length);
        }
      }
      for (Cairn db : dbs) {
        db.close();
      }
      assertEquals(0, shared.memtableBytes(), "closed databases leave the budget");
    }
  }

  @Test
  void aDatabaseWhoseFlushesFailedMakesNoOtherWriterWait() throws Exception {
    AtomicBoolean failTables = new AtomicBoolean();
    Options failing = Options.builder().memtableBytes(8 << 20).fileSystem(new ForwardingFileSystem(new LocalFileSystem()) {
      @Override
      public WritableFile create(Path path, IoTag tag) throws IOException {
        if (failTables.get() && path.toString().endsWith(".sst")) {
          throw new IOException("injected: the disk is full");
        }
        return super.create(path, tag);
      }
    }).build();
    try (SharedResources shared = SharedResources.builder().memtableBudgetBytes(2 << 20).build();
        Cairn broken = Cairn.open(tmp.resolve("broken"), failing, shared);
        Cairn healthy = Cairn.open(tmp.resolve("healthy"), Options.builder().memtableBytes(8 << 20).build(), shared)) {
      byte[] pad = new byte[1000];
      for (int i = 0; i < 1500; i++) {
        broken.put(key(i), pad);
      }
      failTables.set(true);
      assertThrows(RuntimeException.class, broken::flush); // its memtable stays, unflushable
      assertTrue(shared.memtableBytes() > 1 << 20, "the broken database holds " + shared.memtableBytes());
      Thread writer = new Thread(() -> {
        for (int i = 0; i < 3000; i++) {
          healthy.put(key(i), pad);
        }
      });
      writer.start();
      writer.join(60_000);
      assertFalse(writer.isAlive(), "the healthy database's writer waited for a flush that will never come");
      assertEquals(1000, healthy.get(key(2999)).length);
    }
  }

  @Test
  void periodicTasksRunOnTheSharedTimerThread() throws Exception {
    EngineCombo[] combos = {EngineCombo.of(EngineCombo.CompactionStyle.BUFFER, EngineCombo.CompactionScheduler.DLC),
        EngineCombo.twoPhase()};
    try (SharedResources shared = SharedResources.builder().build()) {
      List<Cairn> dbs = new ArrayList<>();
      for (int d = 0; d < combos.length; d++) {
        Options.Builder b = combos[d].apply(EngineCombo.tinyTree().blockCacheBytes(Options.defaults().blockCacheBytes()));
        dbs.add(Cairn.open(tmp.resolve("db" + d), b.build(), shared));
      }
      for (int i = 0; i < KEYS; i++) {
        for (Cairn db : dbs) {
          db.put(key(i), value(0, i));
          db.get(key(i / 2)); // DLC's load and the buffer's heat
        }
      }
      assertTrue(threadNames().stream().noneMatch(n -> n.startsWith("cairn-buffer-trim") || n.startsWith("cairn-dlc")
          || n.startsWith("cairn-idle")), "no database started a timer of its own: " + threadNames());
      assertTrue(threadNames().stream().anyMatch(n -> n.startsWith("cairn-shared-timer-")), threadNames().toString());
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (dbs.get(0).stats().buffer().trimPasses() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertTrue(dbs.get(0).stats().buffer().trimPasses() > 0, "the buffer's trim ran on the shared timer");
      for (Cairn db : dbs) {
        db.close();
      }
    }
  }

  @Test
  void aFailedOpenLeavesNoDatabaseCounted() throws IOException {
    Path notADirectory = Files.writeString(tmp.resolve("file"), "x");
    SharedResources shared = SharedResources.builder().build();
    assertThrows(RuntimeException.class, () -> Cairn.open(notADirectory, Options.defaults(), shared));
    assertEquals(0, shared.openDatabases());
    shared.close(); // would refuse with a database counted
    assertThrows(IllegalStateException.class, () -> Cairn.open(tmp.resolve("db"), Options.defaults(), shared));
  }

  @Test
  void contradictionsAndMisuseAreRefused() {
    SharedResources shared = SharedResources.builder().build();
    IllegalArgumentException own = assertThrows(IllegalArgumentException.class,
        () -> Cairn.open(tmp.resolve("db"), Options.builder().blockCacheBytes(1 << 20).build(), shared));
    assertTrue(own.getMessage().contains("blockCacheBytes"), own.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> Cairn.open(tmp.resolve("db"), Options.builder().backgroundThreads(4).build(), shared));
    assertEquals(0, shared.openDatabases());
    shared.close();
    assertThrows(IllegalStateException.class, () -> Cairn.open(tmp.resolve("db"), Options.defaults(), shared));
    assertThrows(IllegalArgumentException.class, () -> SharedResources.builder().backgroundThreads(1).build());
    assertThrows(IllegalArgumentException.class, () -> SharedResources.builder().memtableBudgetBytes(1000).build());
    assertThrows(IllegalArgumentException.class, () -> SharedResources.builder().tableCacheFiles(8).build());
    assertThrows(IllegalArgumentException.class, () -> SharedResources.builder().tableCacheBytes(1000).build());
  }

  @Test
  void theDatabasesKeepTheirOpenTablesWithinOneSharedBound() {
    int bound = 16;
    List<Cairn> dbs = new ArrayList<>();
    // No block cache: every read reads its block from the file (a cached block needs no file).
    try (SharedResources shared = SharedResources.builder().tableCacheFiles(bound).blockCacheBytes(0).build()) {
      IllegalArgumentException own = assertThrows(IllegalArgumentException.class,
          () -> Cairn.open(tmp.resolve("own"), Options.builder().tableCacheFiles(64).build(), shared));
      assertTrue(own.getMessage().contains("tableCacheFiles"), own.getMessage());
      Options sameAsDerived = Options.builder().tableCacheBytes(Options.defaults().tableCacheBytes()).build();
      assertThrows(IllegalArgumentException.class, () -> Cairn.open(tmp.resolve("own"), sameAsDerived, shared),
          "a bound set, even to the derived value, is the database's own and refused");
      Options manyTables = Options.builder().memtableBytes(64 << 10).targetFileBytes(32 << 10).blockBytes(1024)
          .l0CompactionTrigger(40).l0SlowdownTrigger(80).l0StopTrigger(120).build();
      for (int d = 0; d < 3; d++) {
        Cairn db = Cairn.open(tmp.resolve("db" + d), manyTables, shared);
        dbs.add(db);
        // Twelve overlapping level-0 tables a database: 36 in all against a bound of 16.
        for (int t = 0; t < 12; t++) {
          for (int i = t; i < KEYS; i += 12) {
            db.put(key(i), value(d, i));
          }
          db.flush();
        }
      }
      for (int d = 0; d < 3; d++) {
        for (int i = 0; i < KEYS; i += 5) {
          assertArrayEquals(value(d, i), dbs.get(d).get(key(i)), "database " + d + ", key " + i);
        }
        assertTrue(shared.openTableFiles() <= bound + 1,
            shared.openTableFiles() + " table files open against a shared bound of " + bound);
      }
      long reopened = dbs.get(0).stats().tableCache().fileReopens();
      for (int i = 0; i < KEYS; i += 5) { // the first database's files closed for the others'
        assertArrayEquals(value(0, i), dbs.get(0).get(key(i)), "database 0 again, key " + i);
      }
      assertTrue(dbs.get(0).stats().tableCache().fileReopens() > reopened,
          "reading the first database again opened its files again");
      assertEquals(36, shared.keptTables(), "within the byte bound every table is kept, its file open or not");
      long opens = dbs.stream().mapToLong(db -> db.stats().tableCache().opens()).sum();
      assertEquals(36, opens, "no table was read and decoded twice");
      assertEquals(bound, dbs.get(0).stats().tableCache().capacity(), "each database reports the shared bound");
      assertEquals(dbs.stream().mapToLong(db -> db.stats().tableCache().pinnedBytes()).sum(), shared.tableCacheBytes(),
          "the budget counts what the databases' caches keep");
      for (Cairn db : dbs) {
        db.close();
      }
      assertEquals(0, shared.keptTables(), "closed databases keep no table");
      assertEquals(0, shared.tableCacheBytes(), "nor any index or filter");
      assertEquals(0, shared.openTableFiles(), "nor any file open");
    }
  }

  /** {@code tables} overlapping level-0 tables of keys 0..KEYS-1, value (d, i). */
  private static void writeLevel0Tables(Cairn db, int d, int tables) {
    writeLevel0Tables(db, d, tables, 0);
  }

  /** {@code tables} overlapping level-0 tables of keys from..from+KEYS-1, value (d, i). */
  private static void writeLevel0Tables(Cairn db, int d, int tables, int from) {
    for (int t = 0; t < tables; t++) {
      for (int i = t; i < KEYS; i += tables) {
        db.put(key(from + i), value(d, from + i));
      }
      db.flush();
    }
  }

  private static void readAll(Cairn db, int d) {
    for (int i = 0; i < KEYS; i += 3) {
      assertArrayEquals(value(d, i), db.get(key(i)), "database " + d + ", key " + i);
    }
  }

  /** Two batches of 8 level-0 tables over disjoint keys, every table then read. */
  private static void writeAndReadTwiceTheData(Cairn db) {
    writeLevel0Tables(db, 0, 8, 0);
    writeLevel0Tables(db, 0, 8, KEYS);
    for (int i = 0; i < 2 * KEYS; i += 3) {
      assertArrayEquals(value(0, i), db.get(key(i)), "key " + i);
    }
  }

  @Test
  void aDatabaseThatFilledTheSharedByteBoundGivesRoomToOneThatNeedsIt() {
    Options level0Only = Options.builder().memtableBytes(64 << 10).targetFileBytes(32 << 10).blockBytes(256)
        .l0CompactionTrigger(60).l0SlowdownTrigger(80).l0StopTrigger(120).build();
    long firstBytes;
    long secondBytes;
    try (SharedResources roomy = SharedResources.builder().build();
        Cairn first = Cairn.open(tmp.resolve("probe-first"), level0Only, roomy);
        Cairn second = Cairn.open(tmp.resolve("probe-second"), level0Only, roomy)) {
      writeAndReadTwiceTheData(first);
      firstBytes = first.stats().tableCache().pinnedBytes();
      writeLevel0Tables(second, 1, 8);
      readAll(second, 1);
      secondBytes = second.stats().tableCache().pinnedBytes();
    }
    // Room for the first's 16 tables and half the second's 8: the second takes the rest from
    // the first, which keeps more (about 1.5 of the second's share against 1).
    long bound = firstBytes + secondBytes / 2;
    try (SharedResources shared = SharedResources.builder().tableCacheBytes(bound).build();
        DbImpl first = (DbImpl) Cairn.open(tmp.resolve("first"), level0Only, shared);
        DbImpl second = (DbImpl) Cairn.open(tmp.resolve("second"), level0Only, shared)) {
      writeAndReadTwiceTheData(first); // then only waits
      assertEquals(16, first.engine().tableCache().cachedTables());
      writeLevel0Tables(second, 1, 8);
      readAll(second, 1);
      assertEquals(8, second.engine().tableCache().cachedTables(), "the second keeps every table it needs");
      assertTrue(first.engine().tableCache().cachedTables() < 16, "room taken from the first");
      assertTrue(shared.tableCacheBytes() <= bound, shared.tableCacheBytes() + " bytes pinned against " + bound);
    }
  }

  private static List<String> threadNames() {
    return Thread.getAllStackTraces().keySet().stream().map(Thread::getName).toList();
  }

  private static byte[] key(int i) {
    return String.format("key%08d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int db, int i) {
    return ("db" + db + "-value-" + i + "-" + "s".repeat(60)).getBytes(StandardCharsets.UTF_8);
  }
}

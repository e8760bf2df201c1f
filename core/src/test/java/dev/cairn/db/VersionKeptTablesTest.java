package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.Options;
import dev.cairn.table.cache.TableCacheBudget;
import dev.cairn.table.cache.TableHandle;
import dev.cairn.version.Version;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A version keeps the table handles its point reads take (VersionLookup, "Tables the version
 * keeps"): the reads of a version share one handle per table, a released version closes them,
 * a version with more files than may be open keeps its tables all the same (their files close under
 * the open-file bound), one with more than the byte bound keeps none, and close leaves no table
 * open.
 */
class VersionKeptTablesTest {
  private static final int KEYS = 600;

  @TempDir Path dir;

  static Options options(int tableCacheFiles) {
    return Options.builder()
        .memtableBytes(256 << 10)
        .blockBytes(1024)
        .targetFileBytes(64 << 10)
        .l0CompactionTrigger(100)
        .l0SlowdownTrigger(200)
        .l0StopTrigger(300)
        .tableCacheFiles(tableCacheFiles)
        .backgroundThreads(2)
        .build();
  }

  private static byte[] key(int i) {
    return String.format("key%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int i, int round) {
    return ("value-" + i + "-" + round).getBytes(StandardCharsets.UTF_8);
  }

  /** {@code rounds} overlapping L0 tables: round r writes every (r + 1)th key from r with value (i, r). */
  private static void flushes(Cairn db, int rounds) {
    for (int round = 0; round < rounds; round++) {
      for (int i = round; i < KEYS; i += 1 + round) {
        db.put(key(i), value(i, round));
      }
      db.flush();
    }
  }

  private static byte[] expected(int i, int rounds) {
    int newest = 0;
    for (int round = 0; round < rounds; round++) {
      if (i >= round && (i - round) % (1 + round) == 0) {
        newest = round;
      }
    }
    return value(i, newest);
  }

  private static void readAll(Cairn db, int rounds) {
    for (int i = 0; i < KEYS; i++) {
      assertArrayEquals(expected(i, rounds), db.get(key(i)), "key " + i);
    }
  }

  @Test
  void readsShareTheHandlesTheirVersionKeepsAndAReleasedVersionClosesThem() throws InterruptedException {
    try (DbImpl db = (DbImpl) Cairn.open(dir, options(500))) {
      flushes(db, 3);
      Version before = db.engine().versions().current();
      assertEquals(3, before.fileCount(0));
      for (int f = 0; f < 3; f++) {
        assertNull(before.kept(0, f), "nothing kept before a read");
      }
      readAll(db, 3);
      TableHandle first = assertInstanceOf(TableHandle.class, before.kept(0, 0), "a read keeps the newest table");
      for (int f = 1; f < 3; f++) {
        assertInstanceOf(TableHandle.class, before.kept(0, f), "the reads that went past the newest keep table " + f);
      }
      long opens = db.engine().tableCache().opens();
      readAll(db, 3);
      assertEquals(opens, db.engine().tableCache().opens(), "reading again opens nothing");
      assertSame(first, before.kept(0, 0), "the same handle serves every read of the version");

      // An iterator holds the old version past the compaction; its release closes the kept handles.
      CairnIterator it = db.iterator();
      db.compactRange(null, null);
      Version after = db.engine().versions().current();
      assertNotSame(before, after);
      assertEquals(0, after.fileCount(0));
      readAll(db, 3);
      int currentFiles = after.totalFiles();
      assertTrue(db.engine().tableCache().openTables() > currentFiles,
          "the iterator's version still keeps its tables: " + db.engine().tableCache().openTables());
      it.close();
      assertNull(before.kept(0, 0), "the released version keeps nothing");
      // The engine deletes the old files once no version holds them, and drops the table cache's
      // own references then: only the kept handles could keep them open after that.
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (db.engine().tableCache().openTables() > currentFiles && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertEquals(currentFiles, db.engine().tableCache().openTables(),
          "the released version's tables closed with its handles; the current version's stay open");
    }
  }

  @Test
  void aVersionWithMoreFilesThanMayBeOpenKeepsItsTablesWithTheirFilesClosedUnderTheBound() {
    int rounds = 17; // the open-file bound's smallest is 16
    // No block cache: every read reads its block from the file (a cached block needs no file).
    try (DbImpl db = (DbImpl) Cairn.open(dir, options(16).toBuilder().blockCacheBytes(0).build())) {
      flushes(db, rounds);
      readAll(db, rounds);
      Version v = db.engine().versions().current();
      assertEquals(rounds, v.totalFiles());
      long opens = db.engine().tableCache().opens();
      readAll(db, rounds);
      readAll(db, rounds);
      for (int f = 0; f < rounds; f++) {
        assertNotNull(v.kept(0, f), "17 tables within the byte bound are kept: table " + f);
      }
      assertEquals(opens, db.engine().tableCache().opens(), "no table was read and decoded again");
      TableCacheBudget budget = db.engine().tableCache().budget();
      assertTrue(budget.openFileCount() <= 16, budget.openFileCount() + " files open against a bound of 16");
      assertTrue(budget.reopenedFiles() > 0, "files closed under the bound were opened again");
    }
  }

  @Test
  void aVersionWithMoreTablesThanTheByteBoundKeepsNone() {
    long bound = 64 << 10;
    Options smallBlocks = options(500).toBuilder().blockBytes(256).tableCacheBytes(bound).build();
    byte[] value = "x".repeat(200).getBytes(StandardCharsets.UTF_8);
    try (DbImpl db = (DbImpl) Cairn.open(dir, smallBlocks)) {
      // Eighteen tables of 600 keys each in 256-byte blocks: a read of every table passes the
      // bound; the versions installed after it keep none.
      for (int round = 0; round < 18; round++) {
        for (int i = 0; i < KEYS; i++) {
          db.put(key(round * KEYS + i), value);
        }
        db.flush();
        for (int i = 0; i < (round + 1) * KEYS; i += 50) {
          assertArrayEquals(value, db.get(key(i)));
        }
      }
      Version v = db.engine().versions().current();
      for (int f = 0; f < v.files(0).size(); f++) {
        assertNull(v.kept(0, f), "a tree over the byte bound is not kept: table " + f);
      }
      assertTrue(db.engine().tableCache().cachedTables() < 18, "the tables did not all fit");
      assertTrue(db.engine().tableCache().cachedPinnedBytes() <= bound + (40 << 10), "the byte bound holds");
    }
  }

  @Test
  void closeLeavesNoTableOpen() {
    DbImpl db = (DbImpl) Cairn.open(dir, options(500));
    try {
      flushes(db, 3);
      readAll(db, 3);
      assertEquals(3, db.engine().tableCache().openTables());
    } finally {
      db.close();
    }
    assertEquals(0, db.engine().tableCache().openTables(), "the current version's kept handles closed with the engine");
    try (Cairn reopened = Cairn.open(dir, options(500))) {
      readAll(reopened, 3);
    }
  }
}

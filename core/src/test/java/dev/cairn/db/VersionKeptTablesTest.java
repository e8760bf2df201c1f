package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.Options;
import dev.cairn.table.TableHandle;
import dev.cairn.version.Version;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A version keeps the table handles its point reads take (VersionLookup, "Tables the version
 * keeps"): the reads of a version share one handle per table, a released version closes them,
 * a version with more files than the table cache holds keeps none, and close leaves no table open.
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
  void aVersionWithMoreFilesThanTheTableCacheHoldsKeepsNone() {
    int rounds = 17; // the table cache's smallest capacity is 16
    try (DbImpl db = (DbImpl) Cairn.open(dir, options(16))) {
      flushes(db, rounds);
      readAll(db, rounds);
      Version v = db.engine().versions().current();
      assertEquals(rounds, v.totalFiles());
      for (int f = 0; f < rounds; f++) {
        assertNull(v.kept(0, f), "17 files against a table cache of 16: table " + f);
      }
      assertTrue(db.engine().tableCache().openTables() <= 16, "the table cache's bound holds");
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

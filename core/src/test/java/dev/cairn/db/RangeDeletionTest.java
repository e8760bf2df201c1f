package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.Options;
import dev.cairn.ReadOptions;
import dev.cairn.Snapshot;
import dev.cairn.WriteBatch;
import dev.cairn.iter.IteratorWalk;
import dev.cairn.testing.EngineCombo;
import dev.cairn.testkit.Seeds;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Range deletions through every style and layout: a deleted range reads as absent from point
 * reads and iterators both ways while flushes and compactions move the tombstone down, keys
 * written into the range afterwards read again, a snapshot taken before keeps seeing the range,
 * a full compaction without snapshots reclaims the range's space, and all of it survives a
 * reopen; bad ranges are refused and change nothing.
 */
class RangeDeletionTest {
  private static final int KEYS = 2000;

  static List<EngineCombo> combos() {
    return EngineCombo.all();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String key(int i) {
    return String.format("r%06d", i);
  }

  private static byte[] value(int i, int round) {
    return bytes("v" + i + "-" + round + "-" + "y".repeat(80));
  }

  private static Options options(EngineCombo combo) {
    return combo.apply(EngineCombo.tinyTree()).build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void aDeletedRangeReadsAbsentEverywhereAndItsSpaceIsReclaimed(EngineCombo combo, @TempDir Path dir) {
    long seed = Seeds.seed();
    SplittableRandom rnd = new SplittableRandom(seed);
    String where = combo + ", seed " + seed;
    TreeMap<String, byte[]> model = new TreeMap<>();
    Cairn db = Cairn.open(dir, options(combo));
    try {
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < KEYS; i++) {
          db.put(bytes(key(i)), value(i, round));
          model.put(key(i), value(i, round));
        }
      }
      db.flush();
      Snapshot before = db.snapshot();
      TreeMap<String, byte[]> atBefore = new TreeMap<>(model);
      // A wide range, a narrow one inside data still in the memtable, and one past every key.
      deleteRange(db, model, key(500), key(1250));
      for (int i = 1500; i < 1550; i++) {
        db.put(bytes(key(i)), value(i, 9));
        model.put(key(i), value(i, 9));
      }
      deleteRange(db, model, key(1505), key(1510) + "x");
      deleteRange(db, model, key(1950), "s");
      // Written into the deleted range afterwards: newer than the tombstone, so readable.
      for (int i = 600; i < 610; i++) {
        db.put(bytes(key(i)), value(i, 7));
        model.put(key(i), value(i, 7));
      }
      checkAll(db, model, ReadOptions.DEFAULT, rnd, where + ", in the memtable");
      checkAll(db, atBefore, ReadOptions.at(before), rnd, where + ", snapshot");
      db.flush();
      checkAll(db, model, ReadOptions.DEFAULT, rnd, where + ", flushed");
      db.compactRange(null, null);
      checkAll(db, model, ReadOptions.DEFAULT, rnd, where + ", compacted under a snapshot");
      checkAll(db, atBefore, ReadOptions.at(before), rnd, where + ", snapshot after compaction");
      before.close();
      long withSnapshot = liveTableBytes(db);
      db.compactRange(null, null);
      checkAll(db, model, ReadOptions.DEFAULT, rnd, where + ", compacted");
      long after = liveTableBytes(db);
      // About 800 of 2,050 keys gone: the tables must shrink by far more than noise.
      assertTrue(after < withSnapshot * 0.8, where + ": tables " + withSnapshot + " -> " + after + " bytes");
      db.close();
      db = Cairn.open(dir, options(combo));
      checkAll(db, model, ReadOptions.DEFAULT, rnd, where + ", reopened");
    } finally {
      db.close();
    }
  }

  /**
   * The tables wholly under a tombstone leave their level after the tombstone's flush, unread and
   * unrewritten (a delete-only compaction), while the tables it only partly covers stay; what is
   * left reads as the model says, also after a reopen.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void tablesWhollyUnderATombstoneAreDeletedWithoutARewrite(EngineCombo combo, @TempDir Path dir) {
    long seed = Seeds.seed();
    SplittableRandom rnd = new SplittableRandom(seed);
    String where = combo + ", seed " + seed;
    TreeMap<String, byte[]> model = new TreeMap<>();
    DbImpl db = (DbImpl) Cairn.open(dir, options(combo));
    try {
      for (int i = 0; i < KEYS; i++) {
        db.put(bytes(key(i)), value(i, 0));
        model.put(key(i), value(i, 0));
      }
      db.compactRange(null, null);
      String from = key(200);
      String to = key(1800);
      java.util.Set<Long> inside = new java.util.TreeSet<>();
      java.util.Set<Long> all = new java.util.TreeSet<>();
      Version v = db.engine().versions().current();
      for (int level = 0; level < v.numLevels(); level++) {
        for (FileMetaData f : v.files(level)) {
          all.add(f.number());
          String lo = new String(f.smallestUserKey(), StandardCharsets.UTF_8);
          String hi = new String(f.largestUserKey(), StandardCharsets.UTF_8);
          if (lo.compareTo(from) >= 0 && hi.compareTo(to) < 0) {
            inside.add(f.number());
          }
        }
      }
      assertFalse(inside.isEmpty(), where + ": the test needs tables wholly inside the range, has " + inside);
      deleteRange(db, model, from, to);
      db.flush();
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
      while (db.stats().compaction().deletedTables() < inside.size()) {
        assertTrue(System.nanoTime() < deadline, where + ": " + db.stats().compaction().deletedTables() + " of "
            + inside.size() + " tables deleted after 30 s");
        Thread.onSpinWait();
      }
      assertEquals(inside.size(), db.stats().compaction().deletedTables(), where + ": only the tables wholly inside go");
      java.util.Set<Long> live = new java.util.TreeSet<>();
      Version after = db.engine().versions().current();
      for (int level = 0; level < after.numLevels(); level++) {
        after.files(level).forEach(f -> live.add(f.number()));
      }
      for (long n : inside) {
        assertFalse(live.contains(n), where + ": table " + n + " under the tombstone is still live");
      }
      checkAll(db, model, ReadOptions.DEFAULT, rnd, where + ", after the delete-only compaction");
      db.close();
      db = (DbImpl) Cairn.open(dir, options(combo));
      checkAll(db, model, ReadOptions.DEFAULT, rnd, where + ", reopened");
    } finally {
      db.close();
    }
  }

  private static void deleteRange(Cairn db, TreeMap<String, byte[]> model, String from, String to) {
    db.deleteRange(bytes(from), bytes(to));
    model.subMap(from, true, to, false).clear();
  }

  /** The levels' bytes (block compaction's superseded blocks and files not yet collected do not count). */
  private static long liveTableBytes(Cairn db) {
    return db.stats().levels().stream().mapToLong(l -> l.bytes()).sum();
  }

  /** Every key by get, the whole range forward and backward, and a random walk, against {@code expected}. */
  private static void checkAll(Cairn db, NavigableMap<String, byte[]> expected, ReadOptions read, SplittableRandom rnd,
      String where) {
    for (int i = 0; i < KEYS; i++) {
      byte[] want = expected.get(key(i));
      byte[] got = db.get(bytes(key(i)), read);
      if (want == null) {
        assertNull(got, where + ": " + key(i) + " must be absent");
      } else {
        assertArrayEquals(want, got, where + ": " + key(i));
      }
    }
    try (CairnIterator it = db.iterator(read)) {
      it.seekToFirst();
      for (Map.Entry<String, byte[]> e : expected.entrySet()) {
        assertTrue(it.isValid(), where + ": forward iteration ended before " + e.getKey());
        assertEquals(e.getKey(), new String(it.key(), StandardCharsets.UTF_8), where + ": forward key");
        it.next();
      }
      assertFalse(it.isValid(), where + ": forward iteration has extra keys");
      it.seekToLast();
      for (String k : expected.descendingKeySet()) {
        assertTrue(it.isValid(), where + ": backward iteration ended before " + k);
        assertEquals(k, new String(it.key(), StandardCharsets.UTF_8), where + ": backward key");
        it.prev();
      }
      assertFalse(it.isValid(), where + ": backward iteration has extra keys");
    }
    try (CairnIterator it = db.iterator(read)) {
      IteratorWalk.user(it, expected, RangeDeletionTest::bytes, () -> key(rnd.nextInt(KEYS)), rnd, 200, () -> where);
    }
  }

  /**
   * With a TTL (whose expiry runs through the compaction filter's path) and a user filter, a
   * compaction whose range tombstone covers every entry of some key keeps nothing of it and asks
   * the filters nothing about it.
   */
  @Test
  void rangeDeletionsBesideATtlAndAFilterCompact(@TempDir Path dir) {
    Options o = EngineCombo.tinyTree().ttl(java.time.Duration.ofDays(1))
        .compactionFilter((context, key, value) -> dev.cairn.CompactionFilter.Decision.KEEP).build();
    try (Cairn db = Cairn.open(dir, o)) {
      for (int i = 0; i < KEYS; i++) {
        db.put(bytes(key(i)), value(i, 0));
      }
      db.deleteRange(bytes(key(100)), bytes(key(1500)));
      db.flush();
      db.compactRange(null, null);
      db.put(bytes("after"), bytes("still writable"));
      assertNull(db.get(bytes(key(1000))));
      assertArrayEquals(value(50, 0), db.get(bytes(key(50))));
      assertArrayEquals(value(1800, 0), db.get(bytes(key(1800))));
    }
  }

  @Test
  void badRangesAreRefusedAndChangeNothing(@TempDir Path dir) {
    try (Cairn db = Cairn.open(dir, EngineCombo.tinyTree().build())) {
      db.put(bytes("b"), bytes("1"));
      IllegalArgumentException inverted = assertThrows(IllegalArgumentException.class,
          () -> db.deleteRange(bytes("c"), bytes("a")));
      assertTrue(inverted.getMessage().contains("inverted"), inverted.getMessage());
      IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
          () -> db.deleteRange(bytes("b"), bytes("b")));
      assertTrue(empty.getMessage().contains("empty"), empty.getMessage());
      assertThrows(IllegalArgumentException.class, () -> db.deleteRange(null, bytes("z")));
      assertThrows(IllegalArgumentException.class,
          () -> db.write(new WriteBatch().delete(bytes("b")).deleteRange(bytes("z"), bytes("a"))));
      assertArrayEquals(bytes("1"), db.get(bytes("b")), "nothing was written");
    }
  }
}

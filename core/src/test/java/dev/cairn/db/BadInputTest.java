package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CairnException;
import dev.cairn.DatabaseClosedException;
import dev.cairn.Options;
import dev.cairn.WriteBatch;
import dev.cairn.memtable.MemTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every public entry point given bad input answers with an exception that names the problem, and
 * leaves the database (and the disk) as it was.
 */
class BadInputTest {
  @TempDir Path dir;

  static Stream<Arguments> badCalls() {
    byte[] ok = {1};
    byte[] hugeKey = new byte[Options.MAX_KEY_BYTES + 1];
    byte[] hugeValue = new byte[Options.MAX_VALUE_BYTES + 1];
    return Stream.of(
        call("put null key", db -> db.put(null, ok), "key must not be null"),
        call("put empty key", db -> db.put(new byte[0], ok), "key must not be empty"),
        call("put oversized key", db -> db.put(hugeKey, ok), "exceeds the limit"),
        call("put null value", db -> db.put(ok, null), "value must not be null"),
        call("put oversized value", db -> db.put(ok, hugeValue), "exceeds the limit"),
        call("get null key", db -> db.get(null), "key must not be null"),
        call("get empty key", db -> db.get(new byte[0]), "key must not be empty"),
        call("delete null key", db -> db.delete(null), "key must not be null"),
        call("write null batch", db -> db.write(null), "write batch must not be null"),
        call("write null options", db -> db.write(new WriteBatch(), null), "write options must not be null"),
        call("iterator null options", db -> db.iterator(null), "read options must not be null"),
        call("scan null start", db -> db.scan(null, null, 1), "scan start key must not be null"),
        call("scan negative limit", db -> db.scan(ok, null, -1), "scan limit must not be negative"));
  }

  private static Arguments call(String name, Consumer<Cairn> action, String message) {
    return Arguments.of(name, action, message);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badCalls")
  void badArgumentsAreRejectedAndChangeNothing(String name, Consumer<Cairn> action, String message) throws IOException {
    try (Cairn db = Cairn.open(dir, Options.defaults())) {
      db.put(new byte[] {1}, new byte[] {42});
      long sequenceBefore = db.stats().lastSequence();
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> action.accept(db), name);
      assertTrue(e.getMessage().contains(message), name + ": message was '" + e.getMessage() + "'");
      assertEquals(sequenceBefore, db.stats().lastSequence(), name + " must not write");
      assertArrayEquals(new byte[] {42}, db.get(new byte[] {1}));
    }
  }

  @Test
  void aBatchIsRefusedPastWhatOneMemtableTakesAndStaysAsItWas() {
    // The smallest operations (about 14 million of them) reach the limit with the least heap.
    WriteBatch batch = new WriteBatch();
    byte[] key = {7};
    byte[] empty = {};
    IllegalArgumentException refused = null;
    while (refused == null) {
      int count = batch.count();
      int size = batch.encodedSize();
      try {
        batch.put(key, empty);
      } catch (IllegalArgumentException e) {
        refused = e;
        assertEquals(count, batch.count(), "a refused operation leaves the batch as it was");
        assertEquals(size, batch.encodedSize());
      }
    }
    assertTrue(refused.getMessage().contains("write batch too large"), refused.getMessage());
    long taken = MemTable.bytesToAdd(batch.encodedSize(), batch.count());
    assertTrue(taken <= WriteBatch.MAX_BYTES && taken > WriteBatch.MAX_BYTES - 100, "filled to the limit: " + taken);
    WriteBatch small = new WriteBatch().put(key, empty);
    IllegalArgumentException appended = assertThrows(IllegalArgumentException.class, () -> small.append(batch));
    assertTrue(appended.getMessage().contains("write batch too large"), appended.getMessage());
    assertEquals(1, small.count(), "a refused append leaves the batch as it was");
  }

  static Stream<Arguments> badOptions() {
    return Stream.of(
        Arguments.of((Consumer<Options.Builder>) b -> b.memtableBytes(10), "memtableBytes"),
        Arguments.of((Consumer<Options.Builder>) b -> b.blockBytes(0), "blockBytes"),
        Arguments.of((Consumer<Options.Builder>) b -> b.bloomBitsPerKey(-1), "bloomBitsPerKey"),
        Arguments.of((Consumer<Options.Builder>) b -> b.levelSizeRatio(1), "levelSizeRatio"),
        Arguments.of((Consumer<Options.Builder>) b -> b.l0CompactionTrigger(8).l0SlowdownTrigger(4), "l0SlowdownTrigger"),
        Arguments.of((Consumer<Options.Builder>) b -> b.blockCacheBytes(-1), "blockCacheBytes"),
        Arguments.of((Consumer<Options.Builder>) b -> b.blockCacheEvictionPolicy(null), "blockCacheEvictionPolicy"),
        Arguments.of((Consumer<Options.Builder>) b -> b.tableCacheFiles(1), "tableCacheFiles"),
        Arguments.of((Consumer<Options.Builder>) b -> b.tableCacheBytes(1024), "tableCacheBytes"),
        Arguments.of((Consumer<Options.Builder>) b -> b.tableCacheFiles(-5), "tableCacheFiles"),
        Arguments.of((Consumer<Options.Builder>) b -> b.backgroundThreads(0), "backgroundThreads"),
        Arguments.of((Consumer<Options.Builder>) b -> b.compaction(null), "compaction"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("badOptions")
  void invalidOptionsNameTheOption(Consumer<Options.Builder> change, String option) {
    Options.Builder b = Options.builder();
    change.accept(b);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
    assertTrue(e.getMessage().contains(option), "message '" + e.getMessage() + "' must name " + option);
  }

  @Test
  void aDirectoryThatIsNotADatabaseIsRefusedUntouched() throws IOException {
    Files.writeString(dir.resolve("notes.txt"), "mine");
    Map<String, Long> before = listing(dir);
    CairnException e = assertThrows(CairnException.class, () -> Cairn.open(dir, Options.defaults()));
    assertTrue(e.getMessage().contains("not a Cairn database"), e.getMessage());
    assertEquals(before, listing(dir), "a refused open must not write anything");
  }

  @Test
  void aMissingDatabaseIsNotCreatedWhenCreateIfMissingIsOff() {
    Path missing = dir.resolve("missing");
    CairnException e = assertThrows(CairnException.class,
        () -> Cairn.open(missing, Options.builder().createIfMissing(false).build()));
    assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
    assertFalse(Files.exists(missing));
  }

  @Test
  void aSecondOpenerIsRefusedByTheLock() throws IOException {
    try (Cairn db = Cairn.open(dir, Options.defaults())) {
      db.put(new byte[] {1}, new byte[] {1});
      Map<String, Long> before = listing(dir);
      CairnException e = assertThrows(CairnException.class, () -> Cairn.open(dir, Options.defaults()));
      assertTrue(e.getMessage().contains("LOCK"), e.getMessage());
      assertEquals(before, listing(dir));
      assertArrayEquals(new byte[] {1}, db.get(new byte[] {1}), "the first opener keeps working");
    }
  }

  @Test
  void errorIfExistsRefusesAnExistingDatabase() {
    Cairn.open(dir, Options.defaults()).close();
    CairnException e = assertThrows(CairnException.class,
        () -> Cairn.open(dir, Options.builder().errorIfExists(true).build()));
    assertTrue(e.getMessage().contains("already exists"), e.getMessage());
  }

  @Test
  void aClosedDatabaseRefusesEveryCallAndCloseIsIdempotent() {
    Cairn db = Cairn.open(dir, Options.defaults());
    db.close();
    db.close();
    byte[] k = {1};
    List<Runnable> calls = List.of(() -> db.put(k, k), () -> db.get(k), () -> db.delete(k), db::snapshot,
        db::iterator, db::flush, db::stats, () -> db.compactRange(null, null), () -> db.scan(k, null, 1));
    for (Runnable call : calls) {
      DatabaseClosedException e = assertThrows(DatabaseClosedException.class, call::run);
      assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }
  }

  @Test
  void aClosedSnapshotAndIteratorAreRefused() {
    try (Cairn db = Cairn.open(dir, Options.defaults())) {
      db.put(new byte[] {1}, new byte[] {1});
      var snapshot = db.snapshot();
      snapshot.close();
      assertThrows(DatabaseClosedException.class, () -> snapshot.get(new byte[] {1}));
      var it = db.iterator();
      it.close();
      assertThrows(DatabaseClosedException.class, it::seekToFirst);
    }
  }

  static Map<String, Long> listing(Path dir) throws IOException {
    Map<String, Long> m = new TreeMap<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.toList()) {
        m.put(p.getFileName().toString(), Files.size(p));
      }
    }
    return m;
  }
}

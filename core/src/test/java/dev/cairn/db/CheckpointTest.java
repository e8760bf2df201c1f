package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CairnException;
import dev.cairn.CairnIOException;
import dev.cairn.Options;
import dev.cairn.ReadOnlyException;
import dev.cairn.fs.ForwardingFileSystem;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.fs.WritableFile;
import dev.cairn.testing.EngineCombo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Cairn#checkpoint}: a copy that opens at the point of the call under every style, whose
 * files never change afterwards whatever either database does (block compaction appends in
 * place: a linked table is rewritten instead), and that appears whole or not at all.
 */
class CheckpointTest {
  private static final int KEYS = 3000;

  static List<EngineCombo> combos() {
    return EngineCombo.all();
  }

  private static Options options(EngineCombo combo) {
    return combo.apply(EngineCombo.tinyTree()).build();
  }

  /** A file system that counts the hard links it makes. */
  private static final class CountingLinks extends ForwardingFileSystem {
    final AtomicLong links = new AtomicLong();

    @Override
    public void link(Path existing, Path link) throws IOException {
      super.link(existing, link);
      links.incrementAndGet();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void theCopyOpensAtThePointOfTheCallAndNeitherDatabaseChangesTheOthersFiles(EngineCombo combo, @TempDir Path tmp)
      throws Exception {
    Path live = tmp.resolve("live");
    Path copy = tmp.resolve("copies/one");
    CountingLinks fs = new CountingLinks();
    Options options = combo.apply(EngineCombo.tinyTree()).fileSystem(fs).build();
    try (Cairn db = Cairn.open(live, options)) {
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < KEYS; i++) {
          db.put(key(i), value(i, round));
        }
      }
      for (int i = 0; i < KEYS; i += 5) {
        db.delete(key(i));
      }
      db.put(key(1), value(1, 7)); // in the memtable only: the checkpoint flushes it
      db.checkpoint(copy);
      assertTrue(Files.exists(copy.resolve("CURRENT")));
      assertFalse(Files.exists(copy.resolveSibling("one" + Checkpoint.BUILDING_SUFFIX)));
      Map<String, String> frozen = digests(copy);
      // (Counted as made: the live database's compactions may drop its names of them at once.)
      assertTrue(fs.links.get() > 0 || !linksSupported(tmp), "tables are linked, not copied");

      // The live database goes on: overwrites, deletes and compactions into the linked tables.
      for (int round = 3; round < 6; round++) {
        for (int i = 0; i < KEYS; i++) {
          db.put(key(i), value(i, round));
        }
      }
      db.compactRange(null, null);
      assertEquals(frozen, digests(copy), "the live database changed a file of the checkpoint");
      assertArrayEquals(value(2, 5), db.get(key(2)));
    }

    try (Cairn restored = Cairn.open(copy, options)) {
      checkContentsAtTheCall(restored);
      // The copy is a database of its own: it writes and compacts without touching the original's files.
      Map<String, String> liveFiles = digests(live);
      for (int i = 0; i < KEYS; i++) {
        restored.put(key(i), value(i, 9));
      }
      restored.compactRange(null, null);
      assertEquals(liveFiles, digests(live), "the checkpoint changed a file of the live database");
      assertArrayEquals(value(3, 9), restored.get(key(3)));
    }
    try (Cairn db = Cairn.open(live, options)) {
      assertArrayEquals(value(2, 5), db.get(key(2)));
      assertTrue(db.verifyChecksums() > 0, "the original's tables read back whole");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void aCheckpointUnderRandomWritesHoldsAPrefixOfThem(EngineCombo combo, @TempDir Path tmp) throws Exception {
    Options options = options(combo);
    Path copy = tmp.resolve("copy");
    int from;
    int to;
    RandomWriter writer;
    try (Cairn db = Cairn.open(tmp.resolve("live"), options)) {
      writer = new RandomWriter(db, combo.hashCode(), 400).start();
      try (writer) {
        writer.awaitAcknowledged(5000);
        from = writer.acknowledged();
        db.checkpoint(copy);
        to = writer.started();
        writer.awaitAcknowledged(to + 1000); // compactions go on into the linked tables
      }
    }
    try (Cairn restored = Cairn.open(copy, options)) {
      writer.assertPrefix(restored, from, to);
      assertTrue(restored.verifyChecksums() > 0);
    }
  }

  private static void checkContentsAtTheCall(Cairn db) {
    for (int i = 0; i < KEYS; i++) {
      byte[] expected = i == 1 ? value(1, 7) : i % 5 == 0 ? null : value(i, 2);
      byte[] actual = db.get(key(i));
      if (expected == null) {
        assertNull(actual, "key " + i + " was deleted before the checkpoint");
      } else {
        assertArrayEquals(expected, actual, "key " + i);
      }
    }
  }

  @Test
  void writesDuringTheCallLeaveAConsistentPrefix(@TempDir Path tmp) throws Exception {
    Path live = tmp.resolve("live");
    Path copy = tmp.resolve("copy");
    Options options = options(EngineCombo.of(EngineCombo.CompactionStyle.TABLE, EngineCombo.CompactionScheduler.IMMEDIATE));
    AtomicLong acknowledged = new AtomicLong();
    AtomicBoolean stop = new AtomicBoolean();
    long before;
    try (Cairn db = Cairn.open(live, options)) {
      Thread writer = new Thread(() -> {
        for (long i = 0; !stop.get(); i++) {
          db.put(key((int) i), value((int) i, 0));
          acknowledged.set(i + 1);
        }
      });
      writer.start();
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (acknowledged.get() < 2000 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      before = acknowledged.get();
      db.checkpoint(copy);
      long after = acknowledged.get();
      stop.set(true);
      writer.join();
      assertTrue(after > before, "writes went on during the call (" + before + " then " + after + ")");
    }
    try (Cairn restored = Cairn.open(copy, options)) {
      int present = 0;
      while (restored.get(key(present)) != null) {
        present++;
      }
      assertTrue(present >= before, "writes acknowledged before the call are in the copy: " + present + " < " + before);
      for (int i = present; i < present + 1000; i++) {
        assertNull(restored.get(key(i)), "the copy holds a prefix of the writes, but key " + i + " follows a gap at "
            + present);
      }
    }
  }

  @Test
  void aFileSystemThatCannotCountLinksGetsCopies(@TempDir Path tmp) throws Exception {
    AtomicLong links = new AtomicLong();
    ForwardingFileSystem noCount = new ForwardingFileSystem(new LocalFileSystem()) {
      @Override
      public void link(Path existing, Path link) throws IOException {
        links.incrementAndGet();
        super.link(existing, link);
      }

      @Override
      public int linkCount(Path path) {
        throw new UnsupportedOperationException("no count here");
      }
    };
    EngineCombo block = EngineCombo.of(EngineCombo.CompactionStyle.BLOCK, EngineCombo.CompactionScheduler.IMMEDIATE);
    Options options = block.apply(EngineCombo.tinyTree()).fileSystem(noCount).build();
    try (Cairn db = Cairn.open(tmp.resolve("live"), options)) {
      for (int i = 0; i < KEYS; i++) {
        db.put(key(i), value(i, 0));
      }
      db.checkpoint(tmp.resolve("copy"));
      Map<String, String> frozen = digests(tmp.resolve("copy"));
      for (int i = 0; i < KEYS; i++) {
        db.put(key(i), value(i, 1));
      }
      db.compactRange(null, null); // appends in place: the copy's files are its own
      assertEquals(frozen, digests(tmp.resolve("copy")));
    }
    assertEquals(0, links.get(), "a link its appender could not see would let an append change the copy");
  }

  @Test
  void badTargetsAreRefusedAndChangeNothing(@TempDir Path tmp) throws Exception {
    Path live = tmp.resolve("live");
    Options options = options(EngineCombo.of(EngineCombo.CompactionStyle.TABLE, EngineCombo.CompactionScheduler.IMMEDIATE));
    try (Cairn db = Cairn.open(live, options)) {
      db.put(key(1), value(1, 0));
      Path existing = Files.createDirectories(tmp.resolve("existing"));
      CairnException exists = assertThrows(CairnException.class, () -> db.checkpoint(existing));
      assertTrue(exists.getMessage().contains("already exists"), exists.getMessage());
      assertEquals(List.of(), list(existing));
      IllegalArgumentException inside = assertThrows(IllegalArgumentException.class,
          () -> db.checkpoint(live.resolve("copy")));
      assertTrue(inside.getMessage().contains("outside the database"), inside.getMessage());
      assertThrows(IllegalArgumentException.class, () -> db.checkpoint(null));

      // An interrupted checkpoint's leftover is cleared; a directory of someone else's is not.
      Path leftover = Files.createDirectories(tmp.resolve("again" + Checkpoint.BUILDING_SUFFIX));
      Files.write(leftover.resolve("000007.sst"), new byte[10]);
      db.checkpoint(tmp.resolve("again"));
      assertFalse(Files.exists(leftover));
      Path foreign = Files.createDirectories(tmp.resolve("mine" + Checkpoint.BUILDING_SUFFIX));
      Files.writeString(foreign.resolve("notes.txt"), "keep me");
      CairnException notOurs = assertThrows(CairnException.class, () -> db.checkpoint(tmp.resolve("mine")));
      assertTrue(notOurs.getMessage().contains("notes.txt"), notOurs.getMessage());
      assertEquals("keep me", Files.readString(foreign.resolve("notes.txt")));
      assertEquals(List.of("notes.txt"), list(foreign), "the refused directory is left as it was");
      assertFalse(Files.exists(tmp.resolve("mine")));
      assertArrayEquals(value(1, 0), db.get(key(1)));
    }
    try (Cairn view = Cairn.openReadOnly(live, options)) {
      assertThrows(ReadOnlyException.class, () -> view.checkpoint(tmp.resolve("from-view")));
    }
  }

  /**
   * A second checkpoint into the same target, from this process or another, finds the first's
   * building directory locked and is refused, leaving the first's files alone: sharing one
   * directory, its copy of a table could truncate the first's hard link to a live table. Once the
   * first is gone (its lock with it), its leftover is cleared by unlinking, and the live tables
   * keep their bytes.
   */
  @Test
  void aSecondCheckpointIntoTheSameTargetIsRefusedAndNoLiveTableIsTouched(@TempDir Path tmp) throws Exception {
    Path live = tmp.resolve("live");
    Path copy = tmp.resolve("copy");
    Path building = tmp.resolve("copy" + Checkpoint.BUILDING_SUFFIX);
    try (Cairn db = Cairn.open(live, options(EngineCombo.of(EngineCombo.CompactionStyle.TABLE,
        EngineCombo.CompactionScheduler.IMMEDIATE)))) {
      for (int i = 0; i < 100; i++) {
        db.put(key(i), value(i, 0));
      }
      db.flush();
      Map<String, String> liveTables = digests(live);
      String table = liveTables.keySet().iterator().next();
      // The first checkpoint, mid-way: its directory locked, holding a second name of a live table.
      Files.createDirectories(building);
      if (linksSupported(tmp)) {
        Files.createLink(building.resolve(table), live.resolve(table));
      } else {
        Files.copy(live.resolve(table), building.resolve(table));
      }
      try (AutoCloseable first = new LocalFileSystem().lock(building.resolve("LOCK"))) {
        CairnException refused = assertThrows(CairnException.class, () -> db.checkpoint(copy));
        assertTrue(refused.getMessage().contains("another checkpoint into it is being made"), refused.getMessage());
        assertTrue(Files.exists(building.resolve(table)), "the first checkpoint's files are left alone");
        assertFalse(Files.exists(copy));
      }
      db.checkpoint(copy);
      assertEquals(liveTables, digests(live), "a live table changed");
      assertFalse(Files.exists(building));
    }
    try (Cairn made = Cairn.open(copy, options(EngineCombo.of(EngineCombo.CompactionStyle.TABLE,
        EngineCombo.CompactionScheduler.IMMEDIATE)))) {
      assertArrayEquals(value(99, 0), made.get(key(99)));
    }
  }

  /** A copy into a name that is already another file's second name leaves that file's bytes as they are. */
  @Test
  void aCopyNeverTruncatesThroughAnExistingName(@TempDir Path tmp) throws Exception {
    Path liveTable = Files.write(tmp.resolve("000005.sst"), "the live table".getBytes(StandardCharsets.UTF_8));
    Path source = Files.write(tmp.resolve("other.sst"), "another table".getBytes(StandardCharsets.UTF_8));
    Path name = tmp.resolve("copy-of.sst");
    if (linksSupported(tmp)) {
      Files.createLink(name, liveTable);
    } else {
      Files.copy(liveTable, name);
    }
    LocalFileSystem fs = new LocalFileSystem();
    CopyFiles.copy(fs, source, Files.size(source), fs, name, chunk -> {});
    assertEquals("the live table", Files.readString(liveTable));
    assertEquals("another table", Files.readString(name));
  }

  @Test
  void aFailureLeavesNoDirectoryAndTheDatabaseWorking(@TempDir Path tmp) throws Exception {
    Path live = tmp.resolve("live");
    Path copy = tmp.resolve("copy");
    AtomicBoolean failManifestsOfCopies = new AtomicBoolean(true);
    Options options = EngineCombo.tinyTree().fileSystem(new ForwardingFileSystem(new LocalFileSystem()) {
      @Override
      public WritableFile create(Path path, IoTag tag) throws IOException {
        if (failManifestsOfCopies.get() && !path.startsWith(live) && path.getFileName().toString().startsWith("MANIFEST")) {
          throw new IOException("injected: no space for " + path);
        }
        return super.create(path, tag);
      }
    }).build();
    try (Cairn db = Cairn.open(live, options)) {
      for (int i = 0; i < KEYS; i++) {
        db.put(key(i), value(i, 0));
      }
      CairnIOException failed = assertThrows(CairnIOException.class, () -> db.checkpoint(copy));
      assertTrue(failed.getMessage().contains("injected"), failed.getMessage());
      assertFalse(Files.exists(copy));
      assertFalse(Files.exists(tmp.resolve("copy" + Checkpoint.BUILDING_SUFFIX)));
      db.put(key(0), value(0, 1));
      failManifestsOfCopies.set(false);
      db.checkpoint(copy);
    }
    try (Cairn restored = Cairn.open(copy, options)) {
      assertArrayEquals(value(0, 1), restored.get(key(0)));
      assertArrayEquals(value(KEYS - 1, 0), restored.get(key(KEYS - 1)));
    }
  }

  private static byte[] key(int i) {
    return String.format("key%08d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int i, int round) {
    return ("value-" + i + "-" + round + "-" + "v".repeat(40)).getBytes(StandardCharsets.UTF_8);
  }

  private static List<String> list(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** Each file's SHA-256, by name (the LOCK file aside). */
  private static Map<String, String> digests(Path dir) throws Exception {
    Map<String, String> out = new HashMap<>();
    for (String name : list(dir)) {
      if (!name.equals("LOCK") && name.endsWith(".sst")) {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(dir.resolve(name)));
        out.put(name, HexFormat.of().formatHex(digest));
      }
    }
    return out;
  }

  private static boolean linksSupported(Path dir) throws IOException {
    return Files.getFileStore(dir).supportsFileAttributeView("unix");
  }
}

package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.BackupInfo;
import dev.cairn.Backups;
import dev.cairn.Cairn;
import dev.cairn.CairnException;
import dev.cairn.CairnIOException;
import dev.cairn.CorruptionException;
import dev.cairn.Options;
import dev.cairn.fs.ForwardingFileSystem;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.fs.ReadableFile;
import dev.cairn.fs.WritableFile;
import dev.cairn.testing.EngineCombo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Backups}: incremental (a table is copied once), each backup restored as it was taken under
 * every style, damage found with its file and offset, purges that keep what the newer backups
 * need, and an interrupted backup that leaves the earlier ones whole.
 */
class BackupsTest {
  private static final int KEYS = 2000;

  @TempDir Path tmp;

  static List<EngineCombo> combos() {
    return EngineCombo.all();
  }

  private static Options options(EngineCombo combo) {
    return combo.apply(EngineCombo.tinyTree()).build();
  }

  private static Options tableOptions() {
    return options(EngineCombo.of(EngineCombo.CompactionStyle.TABLE, EngineCombo.CompactionScheduler.IMMEDIATE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void eachBackupRestoresAsItWasTaken(EngineCombo combo) {
    Options options = options(combo);
    Path live = tmp.resolve("live");
    Path backupDir = tmp.resolve("backups");
    BackupInfo first;
    BackupInfo second;
    try (Cairn db = Cairn.open(live, options); Backups backups = Backups.open(backupDir)) {
      write(db, 0);
      first = backups.create(db);
      write(db, 1);
      db.compactRange(null, null);
      second = backups.create(db);
      write(db, 2);
      assertEquals(List.of(first, second), backups.list());
      assertTrue(first.created().isBefore(second.created()) || first.created().equals(second.created()));
      assertTrue(second.lastSequence() > first.lastSequence());
      backups.verify(first.id());
      backups.verify(second.id());
      assertEquals(first, backups.restore(first.id(), tmp.resolve("at-first")));
      assertEquals(second, backups.restoreLatest(tmp.resolve("at-second")));
    }
    try (Cairn atFirst = Cairn.open(tmp.resolve("at-first"), options)) {
      check(atFirst, 0);
    }
    try (Cairn atSecond = Cairn.open(tmp.resolve("at-second"), options)) {
      check(atSecond, 1);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void backupsUnderRandomWritesEachHoldAPrefixOfThem(EngineCombo combo) throws Exception {
    Options options = options(combo);
    int[][] bounds = new int[2][];
    RandomWriter writer;
    try (Cairn db = Cairn.open(tmp.resolve("live"), options); Backups backups = Backups.open(tmp.resolve("backups"))) {
      writer = new RandomWriter(db, combo.hashCode(), 400).start();
      try (writer) {
        for (int b = 0; b < 2; b++) {
          writer.awaitAcknowledged(3000 * (b + 1));
          int from = writer.acknowledged();
          backups.create(db);
          bounds[b] = new int[] {from, writer.started()};
        }
      }
      for (int b = 0; b < 2; b++) {
        backups.restore(b + 1, tmp.resolve("restored-" + b));
      }
    }
    for (int b = 0; b < 2; b++) {
      try (Cairn restored = Cairn.open(tmp.resolve("restored-" + b), options)) {
        writer.assertPrefix(restored, bounds[b][0], bounds[b][1]);
      }
    }
  }

  @Test
  void aTableIsCopiedOnceAndSharedByTheBackupsHoldingIt() throws IOException {
    Path backupDir = tmp.resolve("backups");
    try (Cairn db = Cairn.open(tmp.resolve("live"), tableOptions()); Backups backups = Backups.open(backupDir)) {
      write(db, 0);
      db.compactRange(null, null); // L0 empty: the one table flushed below starts no compaction
      backups.create(db);
      List<String> afterFirst = list(backupDir.resolve("shared"));
      backups.create(db); // nothing written between: every table is shared
      assertEquals(afterFirst, list(backupDir.resolve("shared")));
      db.put(key(1), value(1, 5));
      BackupInfo third = backups.create(db); // one new L0 table
      List<String> afterThird = list(backupDir.resolve("shared"));
      assertEquals(afterFirst.size() + 1, afterThird.size(), afterThird.toString());
      assertTrue(afterThird.containsAll(afterFirst));
      assertEquals(3, backups.list().size());
      assertEquals(third.files(), afterThird.size() + 2, "the tables, a manifest and CURRENT");
    }
  }

  /**
   * A stored table is shared only when its bytes are the table's: a stored copy of the same name
   * and size whose bytes differ (another database's table of the same number, size and CRC-32C
   * would look so, as does a copy that rotted) is left to the backups that hold it, and the table
   * is copied again under a variant of the name.
   */
  @Test
  void aStoredTableIsSharedOnlyWhenItsBytesAreTheTables() throws IOException {
    Path backupDir = tmp.resolve("backups");
    try (Cairn db = Cairn.open(tmp.resolve("live"), tableOptions()); Backups backups = Backups.open(backupDir)) {
      write(db, 0);
      db.compactRange(null, null); // L0 empty: the backups' flushes start no compaction between them
      BackupInfo first = backups.create(db);
      List<String> stored = list(backupDir.resolve("shared"));
      Path damaged = backupDir.resolve("shared").resolve(stored.get(0));
      byte[] bytes = Files.readAllBytes(damaged);
      bytes[bytes.length / 2] ^= 1;
      Files.write(damaged, bytes);

      BackupInfo second = backups.create(db); // nothing written between: every other table is shared
      List<String> now = list(backupDir.resolve("shared"));
      assertEquals(stored.size() + 1, now.size(), now.toString());
      assertTrue(now.contains(BackupEngine.variantName(stored.get(0), 1)), now.toString());
      backups.verify(second.id());
      assertThrows(CorruptionException.class, () -> backups.verify(first.id()));
      backups.restore(second.id(), tmp.resolve("restored"));
    }
    try (Cairn restored = Cairn.open(tmp.resolve("restored"), tableOptions())) {
      check(restored, 0);
    }
  }

  /**
   * A shared file lost from the disk keeps its name for the backup that names it, which a verify
   * then reports as missing: a later backup copies the table under a variant of the name.
   */
  @Test
  void aLostSharedFileKeepsItsNameForItsBackup() throws IOException {
    Path backupDir = tmp.resolve("backups");
    try (Cairn db = Cairn.open(tmp.resolve("live"), tableOptions()); Backups backups = Backups.open(backupDir)) {
      write(db, 0);
      db.compactRange(null, null); // L0 empty: the backups' flushes start no compaction between them
      BackupInfo first = backups.create(db);
      List<String> stored = list(backupDir.resolve("shared"));
      Files.delete(backupDir.resolve("shared").resolve(stored.get(0)));

      BackupInfo second = backups.create(db);
      List<String> now = list(backupDir.resolve("shared"));
      assertFalse(now.contains(stored.get(0)), now.toString());
      assertTrue(now.contains(BackupEngine.variantName(stored.get(0), 1)), now.toString());
      backups.verify(second.id());
      CorruptionException lost = assertThrows(CorruptionException.class, () -> backups.verify(first.id()));
      assertTrue(String.valueOf(lost.getMessage()).contains(stored.get(0)), lost.getMessage());
    }
  }

  /**
   * A backup reads each table once: a table it shares is compared with its stored copy in the
   * same pass that takes its checksums, a table it copies is checksummed as it is copied.
   */
  @Test
  void aBackupReadsEachTableOnce() throws IOException {
    Map<String, Long> backupReads = new ConcurrentHashMap<>();
    Map<String, Long> sizes = new ConcurrentHashMap<>();
    ForwardingFileSystem counting = new ForwardingFileSystem(new LocalFileSystem()) {
      @Override
      public ReadableFile openReadable(Path path) throws IOException {
        ReadableFile file = super.openReadable(path);
        String name = path.getFileName().toString();
        sizes.put(name, file.size());
        return new ForwardingFileSystem.ForwardingReadableFile(file) {
          @Override
          public int read(long position, ByteBuffer dst, IoTag tag) throws IOException {
            int n = super.read(position, dst, tag);
            if (tag.equals(IoTag.OTHER) && name.endsWith(".sst")) {
              backupReads.merge(name, (long) Math.max(n, 0), Long::sum);
            }
            return n;
          }
        };
      }
    };
    Path live = tmp.resolve("live");
    Options options = EngineCombo.of(EngineCombo.CompactionStyle.TABLE, EngineCombo.CompactionScheduler.IMMEDIATE)
        .apply(EngineCombo.tinyTree()).fileSystem(counting).build();
    try (Cairn db = Cairn.open(live, options); Backups backups = Backups.open(tmp.resolve("backups"))) {
      write(db, 0);
      db.compactRange(null, null); // L0 empty: the backups' flushes start no compaction between them
      BackupInfo made = null;
      for (String what : List.of("copies every table", "shares every table")) {
        backupReads.clear();
        made = backups.create(db);
        assertEquals(made.files() - 2, backupReads.size(), "tables read: " + backupReads); // less its manifest and CURRENT
        assertFalse(backupReads.isEmpty());
        backupReads.forEach((table, bytes) ->
            assertEquals(sizes.get(table), bytes, "bytes of " + table + " read by a backup that " + what));
      }
      assertEquals(made.files(), list(tmp.resolve("backups").resolve("shared")).size() + 2, "the second shared every table");
    }
  }

  @Test
  void damageIsReportedWithItsFileAndOffsetAndNeverRestored() throws IOException {
    Path backupDir = tmp.resolve("backups");
    BackupInfo info;
    try (Cairn db = Cairn.open(tmp.resolve("live"), tableOptions()); Backups backups = Backups.open(backupDir)) {
      write(db, 0);
      info = backups.create(db);
    }
    Path table = list(backupDir.resolve("shared")).stream().map(n -> backupDir.resolve("shared").resolve(n))
        .filter(p -> p.toFile().length() > 100).findFirst().orElseThrow();
    try (var ch = Files.newByteChannel(table, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
      java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1);
      ch.position(50).read(b);
      b.put(0, (byte) (b.get(0) ^ 0x40)).rewind();
      ch.position(50).write(b);
    }
    try (Backups backups = Backups.open(backupDir)) {
      CorruptionException damaged = assertThrows(CorruptionException.class, () -> backups.verify(info.id()));
      assertEquals(table.toString(), damaged.file());
      assertEquals(0, damaged.offset(), "the first megabyte holds the damaged byte");
      Path target = tmp.resolve("restored");
      CorruptionException refused = assertThrows(CorruptionException.class, () -> backups.restore(info.id(), target));
      assertEquals(table.toString(), refused.file());
      assertFalse(Files.exists(target));
      assertFalse(Files.exists(tmp.resolve("restored.restore-building")));
    }
    // A damaged record is reported too, never read as a shorter list.
    Path record = backupDir.resolve("meta").resolve(Long.toString(info.id()));
    Files.writeString(record, Files.readString(record).replace("sequence ", "sequence 1"));
    try (Backups backups = Backups.open(backupDir)) {
      CorruptionException bad = assertThrows(CorruptionException.class, backups::list);
      assertEquals(record.toString(), bad.file());
      assertTrue(bad.getMessage().contains("checksum"), bad.getMessage());
    }
  }

  @Test
  void purgingKeepsWhatTheNewerBackupsNeed() throws IOException {
    Path backupDir = tmp.resolve("backups");
    try (Cairn db = Cairn.open(tmp.resolve("live"), tableOptions()); Backups backups = Backups.open(backupDir)) {
      write(db, 0);
      BackupInfo first = backups.create(db);
      write(db, 1);
      db.compactRange(null, null);
      BackupInfo second = backups.create(db);
      write(db, 2);
      BackupInfo third = backups.create(db);
      assertEquals(List.of(first), backups.purgeOldBackups(2));
      assertEquals(List.of(second, third), backups.list());
      assertFalse(Files.exists(backupDir.resolve("private").resolve(Long.toString(first.id()))));
      backups.verify(second.id());
      assertEquals(List.of(second), backups.purgeOldBackups(1));
      backups.verify(third.id());
      backups.restore(third.id(), tmp.resolve("restored"));
      assertEquals(List.of(), backups.purgeOldBackups(1));
      assertThrows(IllegalArgumentException.class, () -> backups.purgeOldBackups(-1));
      assertEquals(third.files() - 2, list(backupDir.resolve("shared")).size(), "only the last backup's tables are left");
    }
    try (Cairn restored = Cairn.open(tmp.resolve("restored"), tableOptions())) {
      check(restored, 2);
    }
  }

  @Test
  void anInterruptedBackupLeavesTheEarlierOnesWholeAndIsCleanedUp() throws IOException {
    Path backupDir = tmp.resolve("backups");
    AtomicInteger createsLeft = new AtomicInteger(Integer.MAX_VALUE);
    ForwardingFileSystem failing = new ForwardingFileSystem(new LocalFileSystem()) {
      @Override
      public WritableFile create(Path path, IoTag tag) throws IOException {
        if (createsLeft.decrementAndGet() < 0) {
          throw new IOException("injected: the disk is full at " + path);
        }
        return super.create(path, tag);
      }
    };
    try (Cairn db = Cairn.open(tmp.resolve("live"), tableOptions()); Backups backups = Backups.open(backupDir, failing)) {
      write(db, 0);
      BackupInfo first = backups.create(db);
      write(db, 1);
      // Fail at each of the backup's file creations in turn: shared tables, manifest, CURRENT, record.
      for (int at = 0; ; at++) {
        createsLeft.set(at);
        try {
          BackupInfo made = backups.create(db);
          createsLeft.set(Integer.MAX_VALUE);
          assertEquals(List.of(first, made), backups.list());
          assertTrue(made.id() > first.id());
          break;
        } catch (CairnIOException e) {
          assertTrue(e.getMessage().contains("injected"), e.getMessage());
          createsLeft.set(Integer.MAX_VALUE);
          assertEquals(List.of(first), backups.list(), "after a failure at creation " + at);
          backups.verify(first.id());
        }
      }
      assertEquals(List.of(), Stream.concat(list(backupDir.resolve("meta")).stream(), list(backupDir.resolve("shared")).stream())
          .filter(n -> n.endsWith(".partial")).toList(), "the leftovers went");
      assertEquals(2, list(backupDir.resolve("private")).size());
      assertEquals(List.of("1", "NEXT"), list(backupDir.resolve("meta")).stream().filter(n -> !n.matches("\\d+") || n.equals("1")).toList());
    }
  }

  @Test
  void idsAreNeverReusedAndADamagedRecordBlocksOnlyItsOwnBackup() throws IOException {
    Path backupDir = tmp.resolve("backups");
    try (Cairn db = Cairn.open(tmp.resolve("live"), tableOptions()); Backups backups = Backups.open(backupDir)) {
      write(db, 0);
      assertEquals(1, backups.create(db).id());
      assertEquals(2, backups.create(db).id());
      backups.purgeOldBackups(0);
      assertEquals(List.of(), backups.list());
      assertEquals(3, backups.create(db).id(), "an id names one backup for good");
      BackupInfo fourth = backups.create(db);
      Path third = backupDir.resolve("meta").resolve("3");
      Files.writeString(third, Files.readString(third).replace("id 3", "id 4"));
      assertThrows(CorruptionException.class, backups::list);
      assertThrows(CorruptionException.class, () -> backups.verify(3));
      assertEquals(fourth, backups.verify(fourth.id()), "the other backups stay usable");
      backups.restore(fourth.id(), tmp.resolve("restored"));
    }
    try (Cairn restored = Cairn.open(tmp.resolve("restored"), tableOptions())) {
      check(restored, 0);
    }
  }

  @Test
  void misuseIsRefusedWithAMessage() throws Exception {
    Path backupDir = tmp.resolve("backups");
    try (Backups backups = Backups.open(backupDir)) {
      CairnException inUse = assertThrows(CairnException.class, () -> Backups.open(backupDir));
      assertTrue(inUse.getMessage().contains("in use"), inUse.getMessage());
      CairnException none = assertThrows(CairnException.class, () -> backups.restoreLatest(tmp.resolve("x")));
      assertTrue(none.getMessage().contains("no backup"), none.getMessage());
      assertThrows(IllegalArgumentException.class, () -> backups.verify(42));
      try (Cairn db = Cairn.open(tmp.resolve("live"), tableOptions())) {
        write(db, 0);
        BackupInfo b = backups.create(db);
        Path existing = Files.createDirectories(tmp.resolve("existing"));
        CairnException exists = assertThrows(CairnException.class, () -> backups.restore(b.id(), existing));
        assertTrue(exists.getMessage().contains("already exists"), exists.getMessage());
        // A building directory that is not a restore's leftover, or a backup that does not
        // exist, is refused before anything is removed.
        Path foreign = Files.createDirectories(tmp.resolve("copy.restore-building"));
        Files.writeString(foreign.resolve("notes.txt"), "keep me");
        CairnException notOurs = assertThrows(CairnException.class, () -> backups.restore(b.id(), tmp.resolve("copy")));
        assertTrue(notOurs.getMessage().contains("notes.txt"), notOurs.getMessage());
        assertThrows(IllegalArgumentException.class, () -> backups.restore(b.id() + 100, tmp.resolve("copy")));
        assertEquals("keep me", Files.readString(foreign.resolve("notes.txt")));
        assertEquals(List.of("notes.txt"), list(foreign), "the refused directory is left as it was");
        // A restore into a target another restore is building is refused, its files left alone.
        Path other = Files.createDirectories(tmp.resolve("other.restore-building"));
        Files.write(other.resolve("000009.sst"), new byte[] {1, 2, 3});
        try (AutoCloseable building = new dev.cairn.fs.LocalFileSystem().lock(other.resolve("LOCK"))) {
          CairnException taken = assertThrows(CairnException.class, () -> backups.restore(b.id(), tmp.resolve("other")));
          assertTrue(taken.getMessage().contains("another restore into it is being made"), taken.getMessage());
          assertTrue(Files.exists(other.resolve("000009.sst")));
        }
        backups.restore(b.id(), tmp.resolve("other")); // its leftover cleared once no one holds it
      }
      try (Cairn view = Cairn.openReadOnly(tmp.resolve("live"), tableOptions())) {
        assertThrows(dev.cairn.ReadOnlyException.class, () -> backups.create(view));
      }
    }
  }

  @Test
  void theRecordReadsBackAsWrittenAndRefusesDamage() {
    BackupRecord r = new BackupRecord(7, Instant.parse("2026-12-04T07:13:12.123Z"), 123456, List.of(
        new BackupRecord.FileEntry("shared/000017_3a2b1c0d_1048577.sst", 1048577, 0x3a2b1c0d, List.of(1, -2)),
        new BackupRecord.FileEntry("private/7/CURRENT", 16, 0x77aa0011, List.of(0x77aa0011))));
    byte[] bytes = r.render();
    assertEquals(r, BackupRecord.parse("meta/7", bytes));
    String text = new String(bytes, StandardCharsets.US_ASCII);
    assertTrue(text.startsWith("cairn-backup 1\nid 7\ncreated 2026-12-04T07:13:12.123Z\nsequence 123456\n"
        + "file shared/000017_3a2b1c0d_1048577.sst 1048577 3a2b1c0d 00000001,fffffffe\n"), text);
    CorruptionException cut = assertThrows(CorruptionException.class,
        () -> BackupRecord.parse("meta/7", java.util.Arrays.copyOf(bytes, bytes.length - 12)));
    assertTrue(cut.getMessage().contains("cut short"), cut.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new BackupRecord.FileEntry("../x", 1, 0, List.of(0)));
    assertEquals("000017.sst", BackupEngine.restoredName("shared/000017_3a2b1c0d_1048577.sst"));
    assertEquals("MANIFEST-000042", BackupEngine.restoredName("private/7/MANIFEST-000042"));
  }

  private static void write(Cairn db, int round) {
    for (int i = 0; i < KEYS; i++) {
      if (i % 3 == round % 3) {
        db.put(key(i), value(i, round));
      }
    }
    db.delete(key(round)); // one deletion per round
  }

  /** What {@link #write} left after rounds 0 to {@code last}. */
  private static void check(Cairn db, int last) {
    for (int i = 0; i < KEYS; i++) {
      int round = -1;
      for (int r = 0; r <= last; r++) {
        if (i % 3 == r % 3) {
          round = r;
        }
      }
      boolean deleted = false;
      for (int r = 0; r <= last; r++) {
        if (i == r && (round <= r)) {
          deleted = true;
        }
      }
      byte[] actual = db.get(key(i));
      if (deleted || round < 0) {
        assertNull(actual, "key " + i + " after round " + last);
      } else {
        assertArrayEquals(value(i, round), actual, "key " + i + " after round " + last);
      }
    }
  }

  private static byte[] key(int i) {
    return String.format("key%08d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int i, int round) {
    return ("value-" + i + "-" + round + "-" + "b".repeat(40)).getBytes(StandardCharsets.UTF_8);
  }

  private static List<String> list(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}

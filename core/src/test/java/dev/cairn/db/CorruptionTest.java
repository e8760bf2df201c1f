package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.CorruptionException;
import dev.cairn.MissingFilesException;
import dev.cairn.Options;
import dev.cairn.Options.WalRecoveryMode;
import dev.cairn.WriteOptions;
import dev.cairn.fs.FileNames;
import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import dev.cairn.testing.EngineCombo;
import dev.cairn.testing.EngineCombo.CompactionScheduler;
import dev.cairn.testing.EngineCombo.CompactionStyle;
import dev.cairn.testkit.Seeds;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Damage to a real database's files — bit flips and truncations at chosen offsets in tables, the
 * manifest and CURRENT — is reported as a {@link CorruptionException} naming the file and an
 * offset inside it, and no damaged byte is ever returned as data: every read that succeeds is
 * compared with the reference, under each compaction style and scheduler ({@link EngineCombo}).
 * The write-ahead log has its own test, {@link WalCorruptionTest}.
 */
class CorruptionTest {
  private static final long SEED = Seeds.seed();
  private static final int KEYS = 1500;
  private static long damagesInjected;
  private static long corruptionsReported;
  private static long readsVerified;

  @TempDir Path dir;
  private final TreeMap<String, byte[]> reference = new TreeMap<>();
  private final List<Cairn> opened = new ArrayList<>();
  private ResourceHygiene.Baseline baseline;

  @BeforeEach
  void takeBaseline() {
    baseline = ResourceHygiene.before(dir);
  }

  /**
   * After each test every database is closed: damaged files, failed opens and failed reads must
   * not leave descriptors, threads or pinned block memory behind.
   */
  @AfterEach
  void checkEverythingReleased() {
    ResourceHygiene.assertReleased(baseline, opened.toArray(new Cairn[0]));
  }

  private Cairn open(Options o) {
    Cairn db = Cairn.open(dir, o);
    opened.add(db);
    return db;
  }

  /** The combination the running test uses (set first thing by each test). */
  private EngineCombo combo;
  /** Names of the tables in the compaction buffer after {@link #buildTables()}. */
  private Set<String> bufferFiles = Set.of();

  /**
   * CI rotation: every style and scheduler once; {@code -Dcairn.long=true} runs the
   * cross-product.
   */
  static List<EngineCombo> combos() {
    return EngineCombo.select(
        EngineCombo.of(CompactionStyle.TABLE, CompactionScheduler.DLC),
        EngineCombo.of(CompactionStyle.BLOCK, CompactionScheduler.IMMEDIATE),
        EngineCombo.of(CompactionStyle.BUFFER, CompactionScheduler.DLC),
        EngineCombo.twoPhase());
  }

  private Options options(WalRecoveryMode mode) {
    // A memtable that holds a round of writes: the second round leaves one L0 table (see buildTables).
    // Under BUFFER the first round's L0 table must stay in L1's buffer: no space bound, no idle drop.
    return combo.apply(Options.builder().memtableBytes(256 << 10).targetFileBytes(32 << 10).blockBytes(1024)
        .blockCacheBytes(1 << 20).walRecoveryMode(mode),
        EngineCombo.buffer().withMaxSpaceFraction(1000).withTrimIntervalMillis(3_600_000)).build();
  }

  /**
   * Tables in L0 and L1, every key flushed; the log is empty; under {@code BUFFER} the first
   * round's L0 table stays in L1's buffer. No compaction is due, so the damaged databases the
   * tests open run none: a compaction during the checks would delete a damaged table, merge it
   * away, or (block compaction) append to it, which {@link DamagedFiles#restore} would then undo
   * behind the manifest's back. With 64 KiB memtables four L0 tables were left, the L0 trigger,
   * and every reopen compacted.
   */
  private void buildTables() {
    Random random = new Random(SEED);
    try (Cairn db = open(options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL))) {
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < KEYS; i++) {
          put(db, i, random, WriteOptions.NO_SYNC);
        }
        if (round == 0) {
          db.compactRange(null, null);
        }
      }
      db.flush();
      int l0 = db.stats().levels().get(0).files();
      assertTrue(l0 > 0 && l0 < Math.min(options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL).l0CompactionTrigger(),
          EngineCombo.dlc().partTriggerFreshFiles()),
          "tables in L0 and L1 with no compaction due: " + l0 + " L0 tables (" + combo + ")");
      bufferFiles = bufferFileNames((DbImpl) db);
    }
  }

  /** The table files only the compaction buffer holds (none but under {@code BUFFER}). */
  private static Set<String> bufferFileNames(DbImpl db) {
    Set<String> names = new HashSet<>();
    db.engine().mutex().lock();
    try {
      Version v = db.engine().versions().current();
      for (int level = 0; level < v.numLevels(); level++) {
        for (BufferRun<FileMetaData> t : v.bufferRuns(level)) {
          for (BufferEntry<FileMetaData> e : t.entries()) {
            if (e instanceof BufferEntry.File<FileMetaData> f) {
              names.add(FileNames.table(f.meta().number()));
            }
          }
        }
      }
    } finally {
      db.engine().mutex().unlock();
    }
    return names;
  }

  private void put(Cairn db, int i, Random random, WriteOptions o) {
    String key = String.format("k%05d", i);
    byte[] value = (key + "@" + random.nextInt(1_000_000) + ":" + "v".repeat(random.nextInt(120)))
        .getBytes(StandardCharsets.UTF_8);
    db.put(key.getBytes(StandardCharsets.UTF_8), value, o);
    reference.put(key, value);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void bitFlipsInTablesAreReportedAndNeverReturnedAsData(EngineCombo combo) throws IOException {
    this.combo = combo;
    buildTables();
    List<Path> tables = DamagedFiles.endingWith(dir, ".sst");
    assertTrue(tables.size() >= 2, "tables in more than one file: " + tables);
    List<Path> damaged = tables.subList(0, Math.min(3, tables.size()));
    if (combo.style() == CompactionStyle.BUFFER) {
      // The oldest table is the first round's L0 table, kept in L1's buffer: damage there too
      // must be reported, and must not be served by a read through the buffer.
      assertTrue(damaged.stream().anyMatch(p -> bufferFiles.contains(p.getFileName().toString())),
          "a buffer file among the damaged tables " + damaged + ", buffer " + bufferFiles);
    }
    Random random = new Random(SEED);
    for (Path table : damaged) {
      long size = Files.size(table);
      // The first data block, somewhere in the middle, the index/filter/properties near the end,
      // and the footer.
      long[] offsets = {0, 5, size / 2, size / 2 + 1 + random.nextInt((int) (size / 2 - 60)), size - 100,
          size - 60, size - 30, size - 8, size - 1};
      for (long offset : offsets) {
        byte[] original = DamagedFiles.flipBit(table, offset, random.nextInt(8));
        damagesInjected++;
        try (Cairn db = open(options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL))) {
          CorruptionException e = assertThrows(CorruptionException.class, db::verifyChecksums,
              "flip at " + offset + " of " + table.getFileName() + " (size " + size + ") must be detected (" + combo + ", seed " + SEED + ")");
          DamagedFiles.assertNamesFile(e, table);
          readEverythingAndCompare(db);
        } finally {
          DamagedFiles.restore(table, original);
        }
      }
    }
  }

  /**
   * A table shorter than the manifest records fails the open, naming the table and where its
   * bytes end, and the refused open changes nothing on disk (LevelDB checks the same at open).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void truncatedTablesFailTheOpenNamingThemAndChangeNothing(EngineCombo combo) throws IOException {
    this.combo = combo;
    buildTables();
    Path table = DamagedFiles.endingWith(dir, ".sst").get(0);
    long size = Files.size(table);
    byte[] original = Files.readAllBytes(table);
    for (long length : new long[] {0, 10, size / 3, size - 49, size - 1}) {
      DamagedFiles.truncate(table, length);
      damagesInjected++;
      try {
        assertOpenRefusedNaming(List.of(table), length);
      } finally {
        Files.write(table, original);
      }
    }
    try (Cairn db = open(options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL))) {
      readEverythingAndCompare(db); // restored: opens and reads everything again
    }
  }

  /** A table the manifest names that was deleted fails the open, naming every missing table. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void missingTablesFailTheOpenNamingEachAndChangeNothing(EngineCombo combo) throws IOException {
    this.combo = combo;
    buildTables();
    List<Path> tables = DamagedFiles.endingWith(dir, ".sst");
    assertTrue(tables.size() >= 2, "the set-up leaves tables in L0 and L1: " + tables);
    Path first = tables.get(0);
    Path last = tables.get(tables.size() - 1);
    byte[] firstBytes = Files.readAllBytes(first);
    byte[] lastBytes = Files.readAllBytes(last);
    Files.delete(first);
    Files.delete(last);
    damagesInjected++;
    MissingFilesException e = assertOpenRefusedNaming(List.of(first, last), 0);
    for (Path p : List.of(first, last)) {
      assertTrue(e.getMessage().contains(p.getFileName().toString() + " ("), "every missing table is named: " + e);
    }
    assertEquals(Set.of(FileNames.parse(first.getFileName().toString()).number(),
        FileNames.parse(last.getFileName().toString()).number()), Set.copyOf(e.tableNumbers()));
    Files.write(first, firstBytes);
    Files.write(last, lastBytes);
    try (Cairn db = open(options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL))) {
      readEverythingAndCompare(db);
    }
  }

  /**
   * Opens, expecting a refusal that names one of {@code tables} (the first the manifest lists) as
   * the corrupt file, at {@code offset}, and writes nothing.
   */
  private MissingFilesException assertOpenRefusedNaming(List<Path> tables, long offset) throws IOException {
    Map<String, Long> before = fileSizes(dir);
    MissingFilesException e = assertThrows(MissingFilesException.class,
        () -> open(options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL)),
        tables + " damaged (cut to " + offset + " bytes) must fail the open (" + combo + ")");
    Path named = tables.stream().filter(t -> e.file().endsWith(t.getFileName().toString())).findFirst()
        .orElseThrow(() -> new AssertionError("the report names one of " + tables + ": " + e));
    DamagedFiles.assertNamesFile(e, named, offset);
    assertEquals(offset, e.offset(), e.getMessage());
    assertEquals(before, fileSizes(dir), "a refused open changes nothing on disk (" + combo + ")");
    corruptionsReported++;
    return e;
  }

  /** Every file of {@code dir} but LOCK, with its size. */
  private static Map<String, Long> fileSizes(Path dir) throws IOException {
    Map<String, Long> out = new TreeMap<>();
    try (var files = Files.list(dir)) {
      for (Path p : files.toList()) {
        if (!p.getFileName().toString().equals(FileNames.LOCK)) {
          out.put(p.getFileName().toString(), Files.size(p));
        }
      }
    }
    return out;
  }

  /**
   * Every bit flip before the manifest's last edit fails the open. (A flip in the last edit is
   * indistinguishable from an edit torn by a crash, which the format ignores by design.)
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void damageInTheManifestFailsTheOpenNamingIt(EngineCombo combo) throws IOException {
    this.combo = combo;
    buildTables();
    Path manifest = DamagedFiles.startingWith(dir, "MANIFEST-").get(0);
    long size = Files.size(manifest);
    long lastRecord = DamagedFiles.lastFragmentOffset(Files.readAllBytes(manifest));
    assertTrue(lastRecord > 40, "the manifest holds several edits");
    Random random = new Random(SEED);
    for (long offset = 0; offset < lastRecord; offset += 1 + random.nextInt(4)) {
      byte[] original = DamagedFiles.flipBit(manifest, offset, random.nextInt(8));
      damagesInjected++;
      try {
        long at = offset;
        CorruptionException e = assertThrows(CorruptionException.class,
            () -> open(options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL)).close(),
            "flip at " + at + " of " + manifest.getFileName() + " (size " + size + ", " + combo + ", seed " + SEED + ")");
        DamagedFiles.assertNamesFile(e, manifest);
        corruptionsReported++;
      } finally {
        DamagedFiles.restore(manifest, original);
      }
    }
    byte[] original = Files.readAllBytes(manifest);
    DamagedFiles.truncate(manifest, 0);
    damagesInjected++;
    CorruptionException e = assertThrows(CorruptionException.class,
        () -> open(options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL)).close(), "an empty manifest");
    DamagedFiles.assertNamesFile(e, manifest);
    Files.write(manifest, original);
    try (Cairn db = open(options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL))) {
      readEverythingAndCompare(db);
      assertEquals(0, corruptionsIn(db), "the repaired database reads cleanly");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void damageInCurrentFailsTheOpenNamingIt(EngineCombo combo) throws IOException {
    this.combo = combo;
    buildTables();
    Path current = dir.resolve(FileNames.CURRENT);
    byte[] original = Files.readAllBytes(current);
    List<byte[]> damaged = new ArrayList<>();
    damaged.add(new byte[0]);
    damaged.add(java.util.Arrays.copyOf(original, original.length - 1)); // no newline
    damaged.add(java.util.Arrays.copyOf(original, 4));
    byte[] flipped = original.clone();
    flipped[9] ^= 0x01; // a digit of the manifest number becomes another character
    damaged.add(flipped);
    damaged.add("MANIFEST-999999\n".getBytes(StandardCharsets.US_ASCII)); // names a missing manifest
    for (byte[] content : damaged) {
      Files.write(current, content);
      damagesInjected++;
      CorruptionException e = assertThrows(CorruptionException.class,
          () -> open(options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL)).close(),
          "CURRENT = " + new String(content, StandardCharsets.ISO_8859_1));
      DamagedFiles.assertNamesFile(e, current);
      corruptionsReported++;
    }
    Files.write(current, original);
    try (Cairn db = open(options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL))) {
      readEverythingAndCompare(db);
    }
  }

  // ---------------------------------------------------------------- helpers

  /**
   * Reads every reference key and scans everything: a read either returns exactly the reference
   * value or throws a CorruptionException; the scan returns only reference entries.
   */
  private void readEverythingAndCompare(Cairn db) {
    for (var e : reference.entrySet()) {
      try {
        byte[] v = db.get(e.getKey().getBytes(StandardCharsets.UTF_8));
        readsVerified++;
        if (v != null) {
          assertArrayEquals(e.getValue(), v, "a damaged table returned a wrong value for " + e.getKey() + " (" + combo + ")");
        } else {
          // A damaged filter or index may hide a key only by failing, never by answering "absent".
          fail("acknowledged key " + e.getKey() + " read as absent instead of failing (" + combo + ")");
        }
      } catch (CorruptionException c) {
        corruptionsReported++;
      }
    }
    try (CairnIterator it = db.iterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        String key = new String(it.key(), StandardCharsets.UTF_8);
        assertArrayEquals(reference.get(key), it.value(), "scan returned damaged data for " + key + " (" + combo + ")");
        readsVerified++;
      }
    } catch (CorruptionException c) {
      corruptionsReported++;
    }
  }

  private int corruptionsIn(Cairn db) {
    try {
      db.verifyChecksums();
      return 0;
    } catch (CorruptionException e) {
      return 1;
    }
  }

  @AfterAll
  static void printFigures() {
    System.out.println("corruption: " + damagesInjected + " damages injected, " + corruptionsReported
        + " corruption reports, " + readsVerified + " reads verified against the reference, 0 corrupt reads (seed "
        + SEED + ")");
  }
}

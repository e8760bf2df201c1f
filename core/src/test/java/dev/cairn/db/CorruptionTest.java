package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cairn.Cairn;
import dev.cairn.CorruptionException;
import dev.cairn.CairnIterator;
import dev.cairn.Options;
import dev.cairn.Options.WalRecoveryMode;
import dev.cairn.WriteOptions;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Damage to a real database's files — bit flips and truncations at chosen offsets in tables, the
 * write-ahead log, the manifest and CURRENT — is reported as a {@link CorruptionException} naming
 * the file and an offset inside it, and no damaged byte is ever returned as data: every read that
 * succeeds is compared with the reference. Each {@link WalRecoveryMode} is tested end to end
 * through {@link Cairn#open} on a damaged log tail and on damage in the middle of a log.
 */
class CorruptionTest {
  private static final long SEED = Long.getLong("cairn.seed", System.nanoTime());
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

  private Options options(WalRecoveryMode mode) {
    return Options.builder().memtableBytes(64 << 10).targetFileBytes(32 << 10).blockBytes(1024)
        .blockCacheBytes(1 << 20).walRecoveryMode(mode).build();
  }

  /** Tables in L0 and L1, every key flushed; the log is empty. */
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
    }
  }

  private void put(Cairn db, int i, Random random, WriteOptions o) {
    String key = String.format("k%05d", i);
    byte[] value = (key + "@" + random.nextInt(1_000_000) + ":" + "v".repeat(random.nextInt(120)))
        .getBytes(StandardCharsets.UTF_8);
    db.put(key.getBytes(StandardCharsets.UTF_8), value, o);
    reference.put(key, value);
  }

  @Test
  void bitFlipsInTablesAreReportedAndNeverReturnedAsData() throws IOException {
    buildTables();
    List<Path> tables = filesEndingWith(".sst");
    assertTrue(tables.size() >= 2, "tables in more than one file: " + tables);
    Random random = new Random(SEED);
    for (Path table : tables.subList(0, Math.min(3, tables.size()))) {
      long size = Files.size(table);
      // The first data block, somewhere in the middle, the index/filter/properties near the end,
      // and the footer.
      long[] offsets = {0, 5, size / 2, size / 2 + 1 + random.nextInt((int) (size / 2 - 60)), size - 100,
          size - 60, size - 30, size - 8, size - 1};
      for (long offset : offsets) {
        byte[] original = flipBit(table, offset, random.nextInt(8));
        try (Cairn db = open(options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL))) {
          CorruptionException e = assertThrows(CorruptionException.class, db::verifyChecksums,
              "flip at " + offset + " of " + table.getFileName() + " (size " + size + ") must be detected (seed " + SEED + ")");
          assertNamesFile(e, table);
          readEverythingAndCompare(db);
        } finally {
          restore(table, original);
        }
      }
    }
  }

  @Test
  void truncatedTablesAreReportedAndNeverReturnedAsData() throws IOException {
    buildTables();
    Path table = filesEndingWith(".sst").get(0);
    long size = Files.size(table);
    byte[] original = Files.readAllBytes(table);
    for (long length : new long[] {0, 10, size / 3, size - 49, size - 1}) {
      try (RandomAccessFile f = new RandomAccessFile(table.toFile(), "rw")) {
        f.setLength(length);
      }
      damagesInjected++;
      try (Cairn db = open(options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL))) {
        CorruptionException e = assertThrows(CorruptionException.class, db::verifyChecksums,
            table.getFileName() + " truncated to " + length + " bytes must be reported");
        // The offset may be where the manifest says data should be, past the truncated end.
        assertNamesFile(e, table, size);
        readEverythingAndCompare(db);
      } finally {
        Files.write(table, original);
      }
    }
  }

  /**
   * Every bit flip before the manifest's last edit fails the open. (A flip in the last edit is
   * indistinguishable from an edit torn by a crash, which the format ignores by design.)
   */
  @Test
  void damageInTheManifestFailsTheOpenNamingIt() throws IOException {
    buildTables();
    Path manifest = filesStartingWith("MANIFEST-").get(0);
    long size = Files.size(manifest);
    long lastRecord = lastFragmentOffset(Files.readAllBytes(manifest));
    assertTrue(lastRecord > 40, "the manifest holds several edits");
    Random random = new Random(SEED);
    for (long offset = 0; offset < lastRecord; offset += 1 + random.nextInt(4)) {
      byte[] original = flipBit(manifest, offset, random.nextInt(8));
      try {
        long at = offset;
        CorruptionException e = assertThrows(CorruptionException.class,
            () -> open(options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL)).close(),
            "flip at " + at + " of " + manifest.getFileName() + " (size " + size + ", seed " + SEED + ")");
        assertNamesFile(e, manifest);
        corruptionsReported++;
      } finally {
        restore(manifest, original);
      }
    }
    byte[] original = Files.readAllBytes(manifest);
    try (RandomAccessFile f = new RandomAccessFile(manifest.toFile(), "rw")) {
      f.setLength(0);
    }
    damagesInjected++;
    CorruptionException e = assertThrows(CorruptionException.class,
        () -> open(options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL)).close(), "an empty manifest");
    assertNamesFile(e, manifest);
    Files.write(manifest, original);
    try (Cairn db = open(options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL))) {
      readEverythingAndCompare(db);
      assertEquals(0, corruptionsIn(db), "the repaired database reads cleanly");
    }
  }

  @Test
  void damageInCurrentFailsTheOpenNamingIt() throws IOException {
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
      assertNamesFile(e, current);
      corruptionsReported++;
    }
    Files.write(current, original);
    try (Cairn db = open(options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL))) {
      readEverythingAndCompare(db);
    }
  }

  // ---------------------------------------------------------------- write-ahead log

  private static final int LOG_RECORDS = 300;

  /** Tables hold nothing; the log holds {@code LOG_RECORDS} puts of distinct keys, in key order. */
  private Path buildLogOnly() throws IOException {
    Random random = new Random(SEED);
    Options o = Options.builder().memtableBytes(4 << 20).build();
    try (Cairn db = open(o)) {
      for (int i = 0; i < LOG_RECORDS; i++) {
        String key = String.format("k%05d", i);
        byte[] value = (key + ":" + "w".repeat(300 + random.nextInt(300))).getBytes(StandardCharsets.UTF_8);
        db.put(key.getBytes(StandardCharsets.UTF_8), value, WriteOptions.NO_SYNC);
        reference.put(key, value);
      }
    }
    List<Path> logs = filesEndingWith(".log");
    assertEquals(1, logs.size(), "one log: " + logs);
    return logs.get(0);
  }

  @ParameterizedTest
  @EnumSource(WalRecoveryMode.class)
  void aTornLogTailIsHandledAsTheRecoveryModeSays(WalRecoveryMode mode) throws IOException {
    Path log = buildLogOnly();
    long size = Files.size(log);
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
      f.setLength(size - 100); // inside the last record: a crash during its write
    }
    damagesInjected++;
    if (mode == WalRecoveryMode.ABSOLUTE_CONSISTENCY) {
      CorruptionException e = assertThrows(CorruptionException.class, () -> open(options(mode)).close());
      assertNamesFile(e, log);
      corruptionsReported++;
      return;
    }
    int recovered = openAndCountPrefix(mode);
    assertEquals(LOG_RECORDS - 1, recovered, "only the torn last record is dropped under " + mode);
    reopenRecoveredDatabaseCleanly(recovered);
  }

  @ParameterizedTest
  @EnumSource(WalRecoveryMode.class)
  void damageInTheMiddleOfTheLogIsHandledAsTheRecoveryModeSays(WalRecoveryMode mode) throws IOException {
    Path log = buildLogOnly();
    long size = Files.size(log);
    long offset = size / 2;
    flipBit(log, offset, 5);
    switch (mode) {
      case TOLERATE_CORRUPTED_TAIL, ABSOLUTE_CONSISTENCY -> {
        CorruptionException e = assertThrows(CorruptionException.class, () -> open(options(mode)).close(),
            mode + " must refuse damage in the middle of the log");
        assertNamesFile(e, log);
        assertTrue(e.offset() <= offset && e.offset() > offset - (32 << 10), "offset " + e.offset() + " near " + offset);
        corruptionsReported++;
      }
      case POINT_IN_TIME -> {
        int prefix = openAndCountPrefix(mode);
        assertTrue(prefix > 0 && prefix < LOG_RECORDS, "a proper prefix survives: " + prefix);
        reopenRecoveredDatabaseCleanly(prefix);
      }
      case SKIP_ANY_CORRUPTED -> {
        try (Cairn db = open(options(mode))) {
          int present = 0;
          for (int i = 0; i < LOG_RECORDS; i++) {
            String key = String.format("k%05d", i);
            byte[] v = db.get(key.getBytes(StandardCharsets.UTF_8));
            readsVerified++;
            if (v != null) {
              assertArrayEquals(reference.get(key), v, "skipped damage must not corrupt " + key);
              present++;
            }
          }
          assertTrue(present < LOG_RECORDS, "the damaged record is skipped");
          assertTrue(db.get(String.format("k%05d", LOG_RECORDS - 1).getBytes(StandardCharsets.UTF_8)) != null,
              "records after the damage are kept");
        }
      }
    }
  }

  @Test
  void aBitFlipInARecordLengthIsNotMistakenForATornTail() throws IOException {
    Random random = new Random(SEED);
    try (Cairn db = open(Options.defaults())) {
      for (int i = 0; i < 20; i++) { // well inside one 32 KiB log block
        String key = String.format("k%05d", i);
        byte[] value = (key + ":" + "x".repeat(200 + random.nextInt(100))).getBytes(StandardCharsets.UTF_8);
        db.put(key.getBytes(StandardCharsets.UTF_8), value, WriteOptions.SYNC);
        reference.put(key, value);
      }
    }
    Path log = filesEndingWith(".log").get(0);
    byte[] bytes = Files.readAllBytes(log);
    long secondToLast = secondToLastFragmentOffset(bytes);
    // The high byte of the length: the length now runs past the end of the file, as a torn
    // write's would, but the last record follows intact.
    flipBit(log, secondToLast + 5, 3);
    for (WalRecoveryMode mode : new WalRecoveryMode[] {WalRecoveryMode.TOLERATE_CORRUPTED_TAIL,
        WalRecoveryMode.ABSOLUTE_CONSISTENCY}) {
      CorruptionException e = assertThrows(CorruptionException.class, () -> open(options(mode)).close(),
          "under " + mode + " the acknowledged last record must not be dropped silently");
      assertNamesFile(e, log);
      assertEquals(secondToLast, e.offset());
      corruptionsReported++;
    }
    try (Cairn db = open(options(WalRecoveryMode.SKIP_ANY_CORRUPTED))) {
      assertArrayEquals(reference.lastEntry().getValue(), db.get(reference.lastKey().getBytes(StandardCharsets.UTF_8)),
          "skipping the damaged record keeps the intact one after it");
      assertEquals(null, db.get(reference.lowerKey(reference.lastKey()).getBytes(StandardCharsets.UTF_8)));
    }
  }

  /** Offsets of the fragments of a log or manifest that fits one block, walked by their lengths. */
  private static List<Long> fragmentOffsets(byte[] log) {
    List<Long> out = new ArrayList<>();
    int p = 0;
    while (p + 7 <= log.length && p + 7 <= (32 << 10)) {
      int length = (log[p + 4] & 0xff) | (log[p + 5] & 0xff) << 8;
      if (length == 0 && log[p + 6] == 0) {
        break;
      }
      out.add((long) p);
      p += 7 + length;
    }
    return out;
  }

  private static long lastFragmentOffset(byte[] log) {
    List<Long> offsets = fragmentOffsets(log);
    return offsets.get(offsets.size() - 1);
  }

  private static long secondToLastFragmentOffset(byte[] log) {
    List<Long> offsets = fragmentOffsets(log);
    return offsets.get(offsets.size() - 2);
  }

  /** Opens under {@code mode} and checks the state is exactly the first n records; returns n. */
  private int openAndCountPrefix(WalRecoveryMode mode) {
    try (Cairn db = open(options(mode))) {
      return checkPrefix(db);
    }
  }

  private int checkPrefix(Cairn db) {
    int n = 0;
    boolean ended = false;
    for (int i = 0; i < LOG_RECORDS; i++) {
      String key = String.format("k%05d", i);
      byte[] v = db.get(key.getBytes(StandardCharsets.UTF_8));
      readsVerified++;
      if (v == null) {
        ended = true;
      } else {
        assertFalse(ended, key + " survives although an earlier record was dropped: not a point in time");
        assertArrayEquals(reference.get(key), v, key);
        n++;
      }
    }
    return n;
  }

  /** The recovery wrote what it kept durably: a default open afterwards sees the same prefix. */
  private void reopenRecoveredDatabaseCleanly(int expected) {
    try (Cairn db = open(options(WalRecoveryMode.ABSOLUTE_CONSISTENCY))) {
      assertEquals(expected, checkPrefix(db));
      db.verifyChecksums();
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
          assertArrayEquals(e.getValue(), v, "a damaged table returned a wrong value for " + e.getKey());
        } else {
          // A damaged filter or index may hide a key only by failing, never by answering "absent".
          fail("acknowledged key " + e.getKey() + " read as absent instead of failing");
        }
      } catch (CorruptionException c) {
        corruptionsReported++;
      }
    }
    try (CairnIterator it = db.iterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        String key = new String(it.key(), StandardCharsets.UTF_8);
        assertArrayEquals(reference.get(key), it.value(), "scan returned damaged data for " + key);
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

  private static void assertNamesFile(CorruptionException e, Path file) throws IOException {
    assertNamesFile(e, file, Files.size(file));
  }

  private static void assertNamesFile(CorruptionException e, Path file, long size) {
    assertTrue(e.file().endsWith(file.getFileName().toString()), "the report names " + file.getFileName() + ": " + e);
    assertTrue(e.offset() >= 0 && e.offset() <= Math.max(size, 64), "offset inside the file: " + e);
    assertTrue(e.getMessage().contains(file.getFileName().toString()), e.getMessage());
  }

  private static byte[] flipBit(Path file, long offset, int bit) throws IOException {
    byte[] original = Files.readAllBytes(file);
    byte[] damaged = original.clone();
    damaged[(int) offset] ^= (byte) (1 << bit);
    Files.write(file, damaged);
    damagesInjected++;
    return original;
  }

  private static void restore(Path file, byte[] original) throws IOException {
    Files.write(file, original);
  }

  private List<Path> filesEndingWith(String suffix) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
  }

  private List<Path> filesStartingWith(String prefix) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().startsWith(prefix)).sorted().toList();
    }
  }

  @AfterAll
  static void printFigures() {
    System.out.println("corruption: " + damagesInjected + " damages injected, " + corruptionsReported
        + " corruption reports, " + readsVerified + " reads verified against the reference, 0 corrupt reads (seed "
        + SEED + ")");
  }
}

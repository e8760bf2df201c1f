package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cairn.Cairn;
import dev.cairn.CorruptionException;
import dev.cairn.CairnIterator;
import dev.cairn.Options;
import dev.cairn.Options.WalRecoveryMode;
import dev.cairn.WriteOptions;
import dev.cairn.fs.FileNames;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage to a real database's files — bit flips and truncations at chosen offsets in tables, the
 * manifest and CURRENT — is reported as a {@link CorruptionException} naming the file and an
 * offset inside it, and no damaged byte is ever returned as data: every read that succeeds is
 * compared with the reference. The write-ahead log has its own test, {@link WalCorruptionTest}.
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
    List<Path> tables = DamagedFiles.endingWith(dir, ".sst");
    assertTrue(tables.size() >= 2, "tables in more than one file: " + tables);
    Random random = new Random(SEED);
    for (Path table : tables.subList(0, Math.min(3, tables.size()))) {
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
              "flip at " + offset + " of " + table.getFileName() + " (size " + size + ") must be detected (seed " + SEED + ")");
          DamagedFiles.assertNamesFile(e, table);
          readEverythingAndCompare(db);
        } finally {
          DamagedFiles.restore(table, original);
        }
      }
    }
  }

  @Test
  void truncatedTablesAreReportedAndNeverReturnedAsData() throws IOException {
    buildTables();
    Path table = DamagedFiles.endingWith(dir, ".sst").get(0);
    long size = Files.size(table);
    byte[] original = Files.readAllBytes(table);
    for (long length : new long[] {0, 10, size / 3, size - 49, size - 1}) {
      DamagedFiles.truncate(table, length);
      damagesInjected++;
      try (Cairn db = open(options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL))) {
        CorruptionException e = assertThrows(CorruptionException.class, db::verifyChecksums,
            table.getFileName() + " truncated to " + length + " bytes must be reported");
        // The offset may be where the manifest says data should be, past the truncated end.
        DamagedFiles.assertNamesFile(e, table, size);
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
            "flip at " + at + " of " + manifest.getFileName() + " (size " + size + ", seed " + SEED + ")");
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

  @AfterAll
  static void printFigures() {
    System.out.println("corruption: " + damagesInjected + " damages injected, " + corruptionsReported
        + " corruption reports, " + readsVerified + " reads verified against the reference, 0 corrupt reads (seed "
        + SEED + ")");
  }
}

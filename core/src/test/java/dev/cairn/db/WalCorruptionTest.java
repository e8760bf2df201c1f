package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CorruptionException;
import dev.cairn.Options;
import dev.cairn.Options.WalRecoveryMode;
import dev.cairn.WriteOptions;
import dev.cairn.testkit.Seeds;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A damaged write-ahead log, end to end through {@link Cairn#open} under each {@link
 * WalRecoveryMode} (docs/log_format.md, "Recovery modes"): a torn tail and damage in the middle
 * are each failed, dropped, cut to a point in time or skipped as the mode says; what recovery
 * keeps is exactly the reference's records, and is durable (a strict reopen sees the same).
 */
class WalCorruptionTest {
  private static final long SEED = Seeds.seed();
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

  @AfterEach
  void checkEverythingReleased() {
    ResourceHygiene.assertReleased(baseline, opened.toArray(new Cairn[0]));
  }

  private Cairn open(Options o) {
    Cairn db = Cairn.open(dir, o);
    opened.add(db);
    return db;
  }

  private static Options options(WalRecoveryMode mode) {
    return Options.builder().walRecoveryMode(mode).build();
  }

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
    List<Path> logs = DamagedFiles.endingWith(dir, ".log");
    assertEquals(1, logs.size(), "one log: " + logs);
    return logs.get(0);
  }

  @ParameterizedTest
  @EnumSource(WalRecoveryMode.class)
  void aTornLogTailIsHandledAsTheRecoveryModeSays(WalRecoveryMode mode) throws IOException {
    Path log = buildLogOnly();
    long size = Files.size(log);
    DamagedFiles.truncate(log, size - 100); // inside the last record: a crash during its write
    damagesInjected++;
    if (mode == WalRecoveryMode.ABSOLUTE_CONSISTENCY) {
      CorruptionException e = assertThrows(CorruptionException.class, () -> open(options(mode)).close());
      DamagedFiles.assertNamesFile(e, log);
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
    DamagedFiles.flipBit(log, offset, 5);
    damagesInjected++;
    switch (mode) {
      case TOLERATE_CORRUPTED_TAIL, ABSOLUTE_CONSISTENCY -> {
        CorruptionException e = assertThrows(CorruptionException.class, () -> open(options(mode)).close(),
            mode + " must refuse damage in the middle of the log");
        DamagedFiles.assertNamesFile(e, log);
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
    Path log = DamagedFiles.endingWith(dir, ".log").get(0);
    byte[] bytes = Files.readAllBytes(log);
    long secondToLast = DamagedFiles.secondToLastFragmentOffset(bytes);
    // The high byte of the length: the length now runs past the end of the file, as a torn
    // write's would, but the last record follows intact.
    DamagedFiles.flipBit(log, secondToLast + 5, 3);
    damagesInjected++;
    for (WalRecoveryMode mode : new WalRecoveryMode[] {WalRecoveryMode.TOLERATE_CORRUPTED_TAIL,
        WalRecoveryMode.ABSOLUTE_CONSISTENCY}) {
      CorruptionException e = assertThrows(CorruptionException.class, () -> open(options(mode)).close(),
          "under " + mode + " the acknowledged last record must not be dropped silently");
      DamagedFiles.assertNamesFile(e, log);
      assertEquals(secondToLast, e.offset());
      corruptionsReported++;
    }
    try (Cairn db = open(options(WalRecoveryMode.SKIP_ANY_CORRUPTED))) {
      assertArrayEquals(reference.lastEntry().getValue(), db.get(reference.lastKey().getBytes(StandardCharsets.UTF_8)),
          "skipping the damaged record keeps the intact one after it");
      assertEquals(null, db.get(reference.lowerKey(reference.lastKey()).getBytes(StandardCharsets.UTF_8)));
    }
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

  @AfterAll
  static void printFigures() {
    System.out.println("wal corruption: " + damagesInjected + " damages injected, " + corruptionsReported
        + " corruption reports, " + readsVerified + " reads verified against the reference, 0 corrupt reads (seed "
        + SEED + ")");
  }
}

package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.BackgroundErrorException;
import dev.cairn.Cairn;
import dev.cairn.CairnException;
import dev.cairn.Options;
import dev.cairn.WriteOptions;
import dev.cairn.fs.fake.FaultInjectingFileSystem;
import dev.cairn.fs.fake.FaultInjectingFileSystem.Fault;
import dev.cairn.fs.FileNames;
import dev.cairn.testing.EngineCombo;
import dev.cairn.testing.EngineCombo.CompactionScheduler;
import dev.cairn.testing.EngineCombo.CompactionStyle;
import dev.cairn.testkit.Seeds;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One I/O fault at a time, through the filesystem layer, while the engine runs: the engine must
 * report the error, refuse writes from then on ({@link BackgroundErrorException}), keep every
 * acknowledged write, and reopen cleanly once the fault is gone (no lost or corrupt data, no
 * stray files, no leaked resources). Faults at open (CURRENT rename, directory sync) must fail
 * the open cleanly and leave a database that opens once healed. Every scenario runs under each
 * compaction style and scheduler ({@link EngineCombo}).
 */
class FaultInjectionTest {
  private static final long SEED = Seeds.seed();
  private static final Map<Fault, Long> INJECTED = new EnumMap<>(Fault.class);
  private static long verifiedReads;

  @TempDir Path dir;

  static final Predicate<String> LOG = n -> n.endsWith(".log");
  static final Predicate<String> TABLE = n -> n.endsWith(".sst");
  static final Predicate<String> MANIFEST = n -> n.startsWith("MANIFEST");

  /** A fault, how to arm it, and the operation that meets it. */
  enum Scenario {
    WAL_SYNC {
      @Override void arm(FaultInjectingFileSystem fs) { fs.failSyncs(LOG); }
      @Override void trigger(Cairn db, AcknowledgedWrites ref) {
        ref.attemptPut(db, AcknowledgedWrites.key(1), ref.newValue(AcknowledgedWrites.key(1), 50), WriteOptions.SYNC);
      }
    },
    WAL_APPEND {
      @Override void arm(FaultInjectingFileSystem fs) { fs.failAppends(LOG); }
      @Override void trigger(Cairn db, AcknowledgedWrites ref) {
        ref.attemptPut(db, AcknowledgedWrites.key(2), ref.newValue(AcknowledgedWrites.key(2), 50), WriteOptions.NO_SYNC);
      }
    },
    WAL_TORN_WRITE {
      @Override void arm(FaultInjectingFileSystem fs) { fs.tearNextAppend(LOG); }
      @Override void trigger(Cairn db, AcknowledgedWrites ref) {
        // Larger than a 32 KiB log block, so the torn half ends inside a multi-fragment record.
        ref.attemptBatch(db, KEYS, 60, WriteOptions.SYNC);
      }
    },
    WAL_OUT_OF_SPACE {
      @Override void arm(FaultInjectingFileSystem fs) { fs.limitSpace(10_000); }
      @Override void trigger(Cairn db, AcknowledgedWrites ref) {
        while (true) {
          ref.attemptBatch(db, KEYS, 5, WriteOptions.NO_SYNC);
        }
      }
    },
    FLUSH_TABLE_WRITE {
      @Override void arm(FaultInjectingFileSystem fs) { fs.failAppends(TABLE); }
      @Override void trigger(Cairn db, AcknowledgedWrites ref) { db.flush(); }
    },
    FLUSH_OUT_OF_SPACE {
      @Override void arm(FaultInjectingFileSystem fs) { fs.limitSpace(5_000); }
      @Override void trigger(Cairn db, AcknowledgedWrites ref) { db.flush(); }
    },
    FLUSH_TORN_TABLE {
      @Override void arm(FaultInjectingFileSystem fs) { fs.tearNextAppend(TABLE); }
      @Override void trigger(Cairn db, AcknowledgedWrites ref) { db.flush(); }
    },
    COMPACTION_TABLE_WRITE {
      @Override void prepare(Cairn db, AcknowledgedWrites ref) { leaveOneFreshL0File(db, ref); }
      @Override void arm(FaultInjectingFileSystem fs) { fs.failAppends(TABLE); }
      @Override void trigger(Cairn db, AcknowledgedWrites ref) { db.compactRange(null, null); }
    },
    COMPACTION_TABLE_SYNC {
      @Override void prepare(Cairn db, AcknowledgedWrites ref) { leaveOneFreshL0File(db, ref); }
      @Override void arm(FaultInjectingFileSystem fs) { fs.failSyncs(TABLE); }
      @Override void trigger(Cairn db, AcknowledgedWrites ref) { db.compactRange(null, null); }
    },
    MANIFEST_WRITE {
      @Override void arm(FaultInjectingFileSystem fs) { fs.failAppends(MANIFEST); }
      @Override void trigger(Cairn db, AcknowledgedWrites ref) { db.flush(); }
    },
    MANIFEST_SYNC {
      @Override void arm(FaultInjectingFileSystem fs) { fs.failNextSync(MANIFEST); }
      @Override void trigger(Cairn db, AcknowledgedWrites ref) { db.flush(); }
    },
    DIRECTORY_SYNC {
      @Override void arm(FaultInjectingFileSystem fs) { fs.failDirectorySyncs(true); }
      @Override void trigger(Cairn db, AcknowledgedWrites ref) { db.flush(); }
    };

    void prepare(Cairn db, AcknowledgedWrites ref) {}

    abstract void arm(FaultInjectingFileSystem fs);

    abstract void trigger(Cairn db, AcknowledgedWrites ref);
  }

  static final int KEYS = 400;

  static Options options(FaultInjectingFileSystem fs, EngineCombo combo) {
    return combo.apply(Options.builder().fileSystem(fs).memtableBytes(64 << 10).targetFileBytes(32 << 10)
        .baseLevelBytes(128 << 10).blockCacheBytes(1 << 20)).build();
  }

  /**
   * CI rotation: every style and scheduler once (the other half of the cross-product from the
   * power-loss test's); {@code -Dcairn.long=true} runs the cross-product. The writes before a
   * fault do no reads, so under DLC the load stays low until the checks read.
   */
  static List<EngineCombo> combos() {
    return EngineCombo.select(
        EngineCombo.of(CompactionStyle.TABLE, CompactionScheduler.DLC),
        EngineCombo.of(CompactionStyle.BLOCK, CompactionScheduler.IMMEDIATE),
        EngineCombo.of(CompactionStyle.BUFFER, CompactionScheduler.DLC),
        EngineCombo.twoPhase());
  }

  static Stream<Arguments> scenarios() {
    return combos().stream().flatMap(c -> Arrays.stream(Scenario.values()).map(s -> Arguments.of(c, s)));
  }

  static Stream<Arguments> openFaults() {
    return combos().stream().flatMap(c -> Stream.of(Fault.RENAME, Fault.DIRECTORY_SYNC, Fault.APPEND)
        .map(f -> Arguments.of(c, f)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("scenarios")
  void theEngineLatchesTheFaultAndReopensWithEveryAcknowledgedWrite(EngineCombo combo, Scenario scenario)
      throws IOException {
    long seed = SEED ^ scenario.ordinal();
    Random random = new Random(seed);
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem();
    AcknowledgedWrites ref = new AcknowledgedWrites(random);
    ResourceHygiene.Baseline baseline = ResourceHygiene.before(dir);
    Cairn db = Cairn.open(dir, options(fs, combo));
    try {
      for (int i = 0; i < 300; i++) {
        ref.writeRandom(db, KEYS, random.nextInt(4) == 0);
      }
      scenario.prepare(db, ref);
      scenario.arm(fs);
      CairnException e = assertThrows(CairnException.class, () -> scenario.trigger(db, ref),
          scenario + " under " + combo + " must report the fault (seed " + seed + ")");
      assertTrue(causedByInjectedFault(e), "the report carries the I/O error: " + e);
      fs.heal();
      assertThrows(BackgroundErrorException.class, () -> db.put(AcknowledgedWrites.key(0), new byte[1]),
          "after " + scenario + " under " + combo + " the state is unknown: writes are refused even once the fault is gone");
      ref.verify(db);
    } finally {
      db.close();
    }
    ResourceHygiene.assertReleased(baseline, db);
    reopenAndVerify(fs, combo, ref, seed);
    tally(fs);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("openFaults")
  void aFaultDuringOpenFailsTheOpenAndTheDatabaseOpensOnceHealed(EngineCombo combo, Fault kind) throws IOException {
    long seed = SEED ^ (100 + kind.ordinal());
    Random random = new Random(seed);
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem();
    AcknowledgedWrites ref = new AcknowledgedWrites(random);
    try (Cairn db = Cairn.open(dir, options(fs, combo))) {
      for (int i = 0; i < 300; i++) {
        ref.writeRandom(db, KEYS, random.nextBoolean());
      }
    }
    switch (kind) {
      case RENAME -> fs.failRenames(true); // CURRENT is switched to a fresh manifest at open
      case DIRECTORY_SYNC -> fs.failDirectorySyncs(true);
      default -> fs.failAppends(MANIFEST.or(TABLE));
    }
    ResourceHygiene.Baseline baseline = ResourceHygiene.before(dir);
    CairnException e = assertThrows(CairnException.class, () -> Cairn.open(dir, options(fs, combo)));
    assertTrue(causedByInjectedFault(e), "the open reports the I/O error: " + e);
    ResourceHygiene.assertReleased(baseline);
    fs.heal();
    reopenAndVerify(fs, combo, ref, seed);
    tally(fs);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void closeReleasesTheLogEvenWhenItsFinalSyncFails(EngineCombo combo) throws IOException {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem();
    ResourceHygiene.Baseline baseline = ResourceHygiene.before(dir);
    Cairn db = Cairn.open(dir, options(fs, combo));
    AcknowledgedWrites ref = new AcknowledgedWrites(new Random(SEED));
    for (int i = 0; i < 50; i++) {
      ref.writeRandom(db, KEYS, false);
    }
    fs.failSyncs(LOG);
    db.close();
    ResourceHygiene.assertReleased(baseline, db);
    fs.heal();
    reopenAndVerify(fs, combo, ref, SEED);
    tally(fs);
  }

  private void reopenAndVerify(FaultInjectingFileSystem fs, EngineCombo combo, AcknowledgedWrites ref, long seed) {
    ResourceHygiene.Baseline baseline = ResourceHygiene.before(dir);
    Cairn reopened = Cairn.open(dir, options(fs, combo));
    try {
      ref.verify(reopened);
      reopened.verifyChecksums();
      ref.writeRandom(reopened, KEYS, true);
      reopened.flush();
      ref.verify(reopened);
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + " (" + combo + ", seed " + seed + "; replay with -Dcairn.seed="
          + SEED + " -Dcairn.combos=" + combo + ")", e);
    } finally {
      reopened.close();
    }
    assertNoStrayTables((DbImpl) reopened);
    ResourceHygiene.assertReleased(baseline, reopened);
    verifiedReads += ref.verifiedReads();
  }

  /** Writes three overlapping L0 tables so that a compaction has work to do. */
  static void fillTables(Cairn db, AcknowledgedWrites ref) {
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 200; i++) {
        ref.writeRandom(db, KEYS, false);
      }
      db.flush();
    }
  }

  /**
   * Leaves a compaction that must write a table. Background compactions may move everything down
   * before the fault is armed (more often when the machine is busy), and a manual compaction with
   * nothing left to merge writes no table, so: compact everything first, then leave one fresh L0
   * file, which must merge.
   */
  static void leaveOneFreshL0File(Cairn db, AcknowledgedWrites ref) {
    fillTables(db, ref);
    db.compactRange(null, null);
    for (int i = 0; i < 200; i++) {
      ref.writeRandom(db, KEYS, false);
    }
    db.flush();
  }

  /**
   * After close (no background work, obsolete files collected), every table file on disk is one
   * the last version names: a failed job's partial output did not outlive the recovery.
   */
  static void assertNoStrayTables(DbImpl db) {
    java.util.Set<Long> live = db.engine().versions().liveFileNumbers();
    try {
      for (String name : db.engine().fs().list(db.engine().dir())) {
        FileNames.Parsed p = FileNames.parse(name);
        if (p.kind() == FileNames.Kind.TABLE) {
          assertTrue(live.contains(p.number()), "stray table " + name + " left after recovery");
        }
      }
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  static boolean causedByInjectedFault(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof IOException && c.getMessage() != null
          && (c.getMessage().contains("injected") || c.getMessage().contains("No space left on device"))) {
        return true;
      }
    }
    return false;
  }

  private static synchronized void tally(FaultInjectingFileSystem fs) {
    fs.faultCounts().forEach((k, v) -> INJECTED.merge(k, v, Long::sum));
  }

  @AfterAll
  static void printFigures() {
    assertTrue(INJECTED.values().stream().mapToLong(Long::longValue).sum() > 0, "no fault was injected");
    System.out.println("fault injection: injected " + INJECTED + "; " + verifiedReads
        + " reads verified, 0 acknowledged writes lost, 0 corrupt reads (seed " + SEED + ")");
  }
}

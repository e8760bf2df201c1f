package dev.cairn.db;

import dev.cairn.testkit.Seeds;
import dev.cairn.testkit.LongTests;
import dev.cairn.version.FileMetaData;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.Options;
import dev.cairn.testing.EngineCombo.LevelLayout;
import dev.cairn.testing.EngineCombo.CompactionScheduler;
import dev.cairn.testing.EngineCombo.CompactionStyle;
import dev.cairn.ReadOptions;
import dev.cairn.Snapshot;
import dev.cairn.Stats;
import dev.cairn.WriteBatch;
import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import dev.cairn.iter.IteratorWalk;
import dev.cairn.config.CompactionSettings;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.testing.AppendOperator;
import dev.cairn.testing.EngineCombo;
import dev.cairn.version.Version;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs a long random mix of puts, deletes, range deletes, merges, batches, snapshots, reads, iterations, flushes,
 * manual compactions and reopens against a {@link TreeMap} reference, with tiny memtables and
 * tables so that flushes and compactions run all the time, and checks every read (LevelDB's
 * randomized model test), under each compaction style and scheduler ({@link EngineCombo}). The
 * seed is printed in every failure message; replay it with {@code -Dcairn.seed=N
 * -Dcairn.combos=STYLE/SCHEDULER}. {@code -Dcairn.long=true} runs every combination, ten times
 * longer.
 */
class ModelTest {
  @TempDir Path dir;

  static Options smallOptions() {
    return Options.builder()
        .memtableBytes(64 << 10)
        .blockBytes(512)
        .targetFileBytes(32 << 10)
        .baseLevelBytes(128 << 10)
        .l0CompactionTrigger(2)
        .l0SlowdownTrigger(6)
        .l0StopTrigger(10)
        .blockCacheBytes(256 << 10)
        // Three threads: a flush and two compactions can run at once.
        .backgroundThreads(3)
        .mergeOperator(AppendOperator.INSTANCE)
        .build();
  }

  /**
   * {@link #smallOptions()} with {@code combo} (its tuning comes from {@link EngineCombo}) and
   * this test's extras. Under {@code BUFFER}: no bloom filter and the smallest tables, so that a
   * buffer file holding only a tombstone must stop the walk itself (no filter answers for it) and
   * small tables leave gaps in the levels.
   */
  static Options options(EngineCombo combo) {
    Options.Builder b = combo.apply(smallOptions().toBuilder());
    if (combo.style() == CompactionStyle.BUFFER) {
      b.bloomBitsPerKey(0).targetFileBytes(16 << 10);
    }
    return b.build();
  }

  /**
   * The CI rotation: every style and scheduler, with the run lengths of the variants this test
   * had before ({@code TABLE} under both schedulers, forced block compaction, the buffer), so
   * that CI takes no longer; {@code -Dcairn.long=true} runs the cross-product, 400,000 steps each.
   */
  static List<EngineCombo> combos() {
    return EngineCombo.select(
        EngineCombo.of(CompactionStyle.TABLE, CompactionScheduler.IMMEDIATE),
        EngineCombo.of(CompactionStyle.TABLE, CompactionScheduler.DLC),
        EngineCombo.of(CompactionStyle.BLOCK, CompactionScheduler.DLC),
        EngineCombo.of(CompactionStyle.BUFFER, CompactionScheduler.IMMEDIATE),
        EngineCombo.twoPhase(),
        EngineCombo.dlsm());
  }

  /** Steps per run: under a minute for the whole class in CI (the long mode runs 400,000). */
  private static int ops(EngineCombo combo) {
    if (LongTests.enabled()) {
      return 400_000;
    }
    if (combo.layout() == LevelLayout.TWO_PHASE) {
      return 10_000;
    }
    return switch (combo.style()) {
      case TABLE -> combo.scheduler() == CompactionScheduler.IMMEDIATE ? 12_000 : 6_000;
      case BLOCK -> 6_000;
      case BUFFER -> 10_000;
    };
  }

  /**
   * The random mix against the model under each combination, and per style the proof that its
   * machinery ran: block compaction appended to tables; the buffer appended, trimmed, hid files
   * behind markers, froze a level, kept parts of files, carried a level's buffer and served gets;
   * DLC held L0 compactions back and ran bursty ones.
   *
   * <p>Under {@code BUFFER} the paper's freeze is on (a repeated-bytes fraction of 0.1; the
   * defaults, which {@link EngineCombo} keeps, leave it off): frozen levels write markers. The
   * tests that run the buffer without this test's options (concurrency, power loss, close in
   * flight, the kill test) cover the default.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("combos")
  void randomOperationsMatchTheModel(EngineCombo combo) {
    long seed = Seeds.seed();
    boolean twoPhase = combo.layout() == LevelLayout.TWO_PHASE;
    Supplier<Options> options = combo.style() == CompactionStyle.BUFFER && !twoPhase
        ? () -> combo.apply(options(combo).toBuilder(), EngineCombo.buffer().withFreezeRepeatedFraction(0.1)).build()
        : () -> options(combo);
    Run run = new Run(seed, options);
    run.execute(ops(combo), () -> machineryRan(combo, run));
    if (twoPhase) {
      assertTrue(run.levelMoves > 0, "a two-phase round must end (an insertion part moved whole), " + run.where());
      if (combo.style() == CompactionStyle.BUFFER) {
        assertTrue(run.bufferAppends > 0, "merges must append to the buffer, " + run.where());
        assertTrue(run.bufferServed > 0, "buffer files must answer gets, " + run.where());
        assertTrue(run.bufferScanned > 0, "scans must read level files from the buffer, " + run.where());
      }
    } else switch (combo.style()) {
      case TABLE, BLOCK -> { } // Run.execute checks appended tables under BLOCK (both rules)
      case BUFFER -> {
        assertTrue(run.bufferAppends > 0, "the run must append to the buffer, " + run.where());
        assertTrue(run.bufferTrims > 0, "the trim must drop cold buffer files, " + run.where());
        assertTrue(run.bufferShadowed > 0, "markers must hide buffer files as data merges down, " + run.where());
        assertTrue(run.bufferFreezes > 0, "the skewed keys must freeze a level, " + run.where());
        assertTrue(run.maxBufferFiles > 0, "the buffer must hold files at some point, " + run.where());
        assertTrue(run.maxBufferParts > 0, "the trim must keep hot runs of some file as parts, " + run.where());
        assertTrue(run.maxCarrying > 0, "a merge down must carry a level's buffer along, " + run.where());
        assertTrue(run.bufferServed > 0, "buffer files must answer gets, " + run.where());
        assertTrue(run.bufferScanned > 0, "scans must read level files from the buffer, " + run.where());
      }
    }
    if (combo.scheduler() == CompactionScheduler.DLC) {
      assertTrue(run.dlcDelayed > 0, "DLC must hold L0 compactions back under the reads' load, " + run.where());
      assertTrue(run.dlcBursts > 0, "DLC must run bursty compactions as L0 grows, " + run.where());
    }
  }

  /**
   * Whether the open run has shown the background work {@link #randomOperationsMatchTheModel}
   * asserts ran, counting the open database's statistics: level moves, the buffer's trims and
   * merges and DLC's holds all wait on background timing, and a run on a busy machine can end
   * before they happen. (Flushes, compactions and block compaction's appended tables, which
   * {@code execute} asserts, come early in every run.)
   */
  private static boolean machineryRan(EngineCombo combo, Run run) {
    Stats now = run.db.stats();
    boolean buffer = combo.style() == CompactionStyle.BUFFER;
    boolean ran = true;
    if (combo.layout() == LevelLayout.TWO_PHASE) {
      ran = run.levelMoves + now.compaction().levelMoves() > 0;
    } else if (buffer) {
      ran = run.maxCarrying > 0 && run.maxBufferParts > 0 && run.maxBufferFiles > 0
          && run.bufferTrims + now.buffer().trimmedFiles() > 0
          && run.bufferShadowed + now.buffer().shadowedFiles() > 0
          && run.bufferFreezes + now.buffer().freezes() > 0;
    }
    if (buffer) {
      ran &= run.bufferAppends + now.buffer().appendedFiles() > 0
          && run.bufferServed + now.buffer().servedGets() > 0
          && run.bufferScanned + now.buffer().scannedFromBuffer() > 0;
    }
    if (combo.scheduler() == CompactionScheduler.DLC) {
      ran &= run.dlcDelayed + now.dlc().delayedL0Compactions() > 0
          && run.dlcBursts + now.dlc().partRuns() + now.dlc().fullRuns() > 0;
    }
    return ran;
  }

  /**
   * The buffer with Bloom filters (the main run has none, to test tombstone-only files): the
   * trim's cold parts become filter markers, which stop only the walks for keys their file may
   * hold, and every read still matches the model.
   */
  @Test
  void randomOperationsMatchTheModelWithFilterMarkers() {
    long seed = Seeds.seed();
    EngineCombo combo = EngineCombo.of(CompactionStyle.BUFFER, CompactionScheduler.IMMEDIATE);
    // Passes paced by writes, a buffer left alone for a second before it counts as idle, no
    // space bound: markers must live long enough to be seen (the main run covers those rules).
    Run run = new Run(seed, () -> combo.apply(smallOptions().toBuilder(),
            EngineCombo.buffer().withTrimIntervalMillis(1000).withTrimPassesPerBaseLevel(64).withMaxSpaceFraction(1000))
        .targetFileBytes(16 << 10)
        .build());
    // 30,000 steps: since the trim judges the newest run too, a level's buffer empties sooner and
    // markers live shorter; at 15,000 steps one local run of seven saw none.
    run.execute(LongTests.enabled() ? 400_000 : 30_000);
    assertTrue(run.maxFilterMarkers > 0, "the trim must leave filter markers for cold parts, " + run.where());
    assertTrue(run.bufferServed > 0, "buffer files must answer gets, " + run.where());
  }

  /**
   * The buffer leaving cold arrivals out, as by default ({@code keepColdArrivals} off; the other
   * runs keep them, {@link EngineCombo#buffer}): merged files no read warmed are not appended
   * where no marker is needed, and every read still matches the model. The mix reads often, so
   * both kinds of arrival occur.
   */
  @Test
  void randomOperationsMatchTheModelLeavingColdArrivalsOut() {
    long seed = Seeds.seed();
    EngineCombo combo = EngineCombo.of(CompactionStyle.BUFFER, CompactionScheduler.IMMEDIATE);
    Run run = new Run(seed, () -> combo.apply(options(combo).toBuilder(),
        EngineCombo.buffer().withKeepColdArrivals(false)).build());
    // 30,000 steps: with the overlap check on inputs removed, one run in three caught the stale
    // read at 15,000 steps.
    run.execute(LongTests.enabled() ? 400_000 : 30_000);
    assertTrue(run.bufferColdLeftOut > 0, "merges must leave cold files out, " + run.where());
    assertTrue(run.bufferAppends > 0, "merges must still append warm files, " + run.where());
    assertTrue(run.bufferServed > 0, "buffer files must answer gets, " + run.where());
  }

  /**
   * Table and block compaction reading tables with O_DIRECT, where table iterators read ahead
   * ({@code Readahead}): scans, compactions and block compaction's appends served from read-ahead
   * spans (512-byte blocks: a span holds dozens) still match the model.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("directReadCombos")
  void randomOperationsMatchTheModelReadingDirectly(EngineCombo combo) {
    long seed = Seeds.seed();
    int ops = LongTests.enabled() ? 400_000 : 8_000;
    new Run(seed, () -> options(combo).toBuilder().fileSystem(new LocalFileSystem(true)).build())
        .execute(ops);
  }

  static List<EngineCombo> directReadCombos() {
    return List.of(EngineCombo.of(CompactionStyle.TABLE, CompactionScheduler.IMMEDIATE),
        EngineCombo.of(CompactionStyle.BLOCK, CompactionScheduler.IMMEDIATE));
  }

  /**
   * Block compaction with the default selective rule instead of forcing it: appends, rewrites and
   * footer moves as the ratios decide. Only {@code BLOCK} has the rule; CI runs it with the
   * immediate scheduler, {@code -Dcairn.long=true} with both.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("blockCombos")
  void randomOperationsMatchTheModelWithSelectiveBlockCompaction(EngineCombo combo) {
    long seed = Seeds.seed();
    int ops = LongTests.enabled() ? 400_000 : 8_000;
    CompactionSettings.Leveled forced = (CompactionSettings.Leveled) combo.settings();
    CompactionSettings.Block selective = ((CompactionSettings.Block) forced.execution())
        .withPolicy(EngineCombo.blockCompaction().withForceBlock(false));
    new Run(seed, () -> combo.apply(smallOptions().toBuilder())
        .compaction(new CompactionSettings.Leveled(selective, forced.scheduler())).build()).execute(ops);
  }

  static List<EngineCombo> blockCombos() {
    return LongTests.enabled()
        ? List.of(EngineCombo.of(CompactionStyle.BLOCK, CompactionScheduler.IMMEDIATE),
            EngineCombo.of(CompactionStyle.BLOCK, CompactionScheduler.DLC))
        : List.of(EngineCombo.of(CompactionStyle.BLOCK, CompactionScheduler.IMMEDIATE));
  }

  private final class Run {
    final long seed;
    /** A fresh Options per open, so every open has its own I/O counters. */
    final Supplier<Options> options;
    final SplittableRandom rnd;
    final TreeMap<String, byte[]> model = new TreeMap<>(ModelTest::compareUtf8);
    final List<OpenSnapshot> snapshots = new ArrayList<>();
    Cairn db;
    int step;
    long flushes;
    long compactions;
    long appendedTables;
    long bufferAppends;
    long levelMoves;
    long bufferColdLeftOut;
    long bufferTrims;
    long bufferShadowed;
    long bufferFreezes;
    long bufferServed;
    /** Level files iterators read from the buffer files a merge made them of. */
    long bufferScanned;
    long dlcDelayed;
    long dlcBursts;
    /** Buffer files seen; written by installs too. */
    volatile int maxBufferFiles;
    /** Buffer entries seen that are parts of a file (the trim kept some of its runs); written by installs. */
    volatile int maxBufferParts;
    /** Buffer entries seen that carry their former level's buffer; written by installs. */
    volatile int maxCarrying;
    /** Filter markers seen: the trim's cold parts that keep their file's filter. */
    int maxFilterMarkers;

    record OpenSnapshot(Snapshot snapshot, NavigableMap<String, byte[]> view) {}

    Run(long seed, Supplier<Options> options) {
      this.seed = seed;
      this.options = options;
      this.rnd = new SplittableRandom(seed);
    }

    /**
     * Opens the database and looks at every version it installs: the buffer's parts, carried
     * files and filter markers change within a background step, so sampling between steps missed
     * them in some runs on a busy machine.
     */
    private Cairn openWatched() {
      Cairn opened = Cairn.open(dir, options.get());
      if (options.get().compaction().execution() instanceof CompactionSettings.Buffer) {
        DbImpl impl = (DbImpl) opened;
        impl.engine().mutex().lock();
        try {
          impl.engine().onVersionInstalled(this::lookAtBuffer);
          lookAtBuffer(impl.engine().versions().current());
        } finally {
          impl.engine().mutex().unlock();
        }
      }
      return opened;
    }

    /** Under the engine's mutex: the largest counts of buffer entries any version held. */
    private void lookAtBuffer(Version v) {
      maxBufferParts = Math.max(maxBufferParts, bufferFileEntries(v, f -> !f.whole()));
      maxCarrying = Math.max(maxCarrying, bufferFileEntries(v, f -> !f.carried().isEmpty()));
      maxBufferFiles = Math.max(maxBufferFiles, bufferFileEntries(v, f -> true));
      maxFilterMarkers = Math.max(maxFilterMarkers, filterMarkers(v));
    }

    /** Markers the trim left with their file's filter, in every level's runs (not carried ones). */
    private static int filterMarkers(Version v) {
      int n = 0;
      for (int level = 0; level < v.numLevels(); level++) {
        for (BufferRun<FileMetaData> t : v.bufferRuns(level)) {
          n += (int) t.entries().stream().filter(e -> e instanceof BufferEntry.Removed<FileMetaData> m && !m.hidesAll()).count();
        }
      }
      return n;
    }

    /** The file entries of {@code v}'s buffer that pass {@code test}, at top level. */
    private static int bufferFileEntries(Version v, java.util.function.Predicate<BufferEntry.File> test) {
      int n = 0;
      for (int level = 0; level < v.numLevels(); level++) {
        for (BufferRun<FileMetaData> t : v.bufferRuns(level)) {
          n += (int) t.entries().stream().filter(e -> e instanceof BufferEntry.File<FileMetaData> f && test.test(f)).count();
        }
      }
      return n;
    }

    String where() {
      Options o = options.get();
      return "seed " + seed + ", step " + step + ", compaction " + o.compaction();
    }

    void execute(int ops) {
      execute(ops, () -> true);
    }

    /**
     * {@code ops} random steps, then more (up to twice as many again) until {@code shown}: what
     * the background does (level moves, the buffer's carried files and kept parts, DLC's holds)
     * follows its timing, and a run on a busy machine could end before it happened.
     */
    void execute(int ops, java.util.function.BooleanSupplier shown) {
      db = openWatched();
      try {
        for (step = 0; step < ops || (step < 3 * ops && !shown.getAsBoolean()); step++) {
          int r = rnd.nextInt(1000);
          if (r < 397) {
            put();
          } else if (r < 400) {
            // Rare: a table holding a range tombstone is compacted whole, not by blocks, until the
            // tombstone reaches the bottom, and the block and buffer machinery must still run.
            deleteRange();
          } else if (r < 450) {
            merge();
          } else if (r < 550) {
            delete();
          } else if (r < 620) {
            batch();
          } else if (r < 870) {
            checkRandomKeyAgainstModel();
          } else if (r < 885) {
            takeSnapshot();
          } else if (r < 905) {
            checkSnapshot();
          } else if (r < 925) {
            checkIteration(db.iterator(ReadOptions.DEFAULT), model, null, null);
          } else if (r < 945) {
            checkBoundedIteration();
          } else if (r < 950) {
            releaseSnapshot();
          } else if (r < 953) {
            db.flush();
            maxBufferFiles = Math.max(maxBufferFiles, db.stats().buffer().files());
          } else if (r < 955) {
            compactRandomRange();
          } else if (r < 957) {
            reopen();
          } else {
            checkRandomKeyAgainstModel();
          }
        }
        checkIteration(db.iterator(ReadOptions.DEFAULT), model, null, null);
        for (String k : model.keySet()) {
          assertArrayEquals(model.get(k), db.get(bytes(k)), "final value of " + k + ", " + where());
        }
        db.verifyChecksums();
        countBackgroundWork();
        System.out.println("model test " + where() + ": " + flushes + " flushes, " + compactions + " compactions, "
            + appendedTables + " appended tables, buffer " + bufferAppends + " appends / " + bufferTrims + " trims / "
            + bufferFreezes + " freezes / " + bufferServed + " served gets / " + bufferScanned + " files scanned, DLC " + dlcDelayed + " delayed / "
            + dlcBursts + " bursty runs");
        assertTrue(flushes > 0, "the run must exercise flushes, " + where());
        assertTrue(compactions > 0, "the run must exercise compactions, " + where());
        if (options.get().compaction().execution() instanceof CompactionSettings.Block) {
          assertTrue(appendedTables > 0, "the run must exercise block compaction, " + where());
        }
      } catch (AssertionError e) {
        throw e;
      } catch (RuntimeException e) {
        throw new AssertionError("unexpected failure at " + where() + ": " + e, e);
      } finally {
        snapshots.forEach(s -> s.snapshot().close());
        db.close();
      }
    }

    String randomKey() {
      // A skewed key space: many overwrites of a few keys, and a long tail.
      int n = rnd.nextInt(4) == 0 ? rnd.nextInt(50) : rnd.nextInt(3000);
      return String.format("k%05d", n);
    }

    /** Random bytes, or (half the time) a short random run repeated, which a codec shrinks. */
    byte[] randomValue() {
      byte[] v = new byte[rnd.nextInt(4) == 0 ? rnd.nextInt(2000) : rnd.nextInt(100)];
      int period = rnd.nextBoolean() ? v.length : 1 + rnd.nextInt(8);
      for (int i = 0; i < v.length; i++) {
        v[i] = i < period ? (byte) rnd.nextInt(256) : v[i - period];
      }
      return v;
    }

    void put() {
      String k = randomKey();
      byte[] v = randomValue();
      db.put(bytes(k), v);
      model.put(k, v);
    }

    /** A short operand: a hot key takes many, and its value grows by each. */
    void merge() {
      String k = randomKey();
      byte[] operand = randomOperand();
      db.merge(bytes(k), operand);
      model.merge(k, operand, AppendOperator::concat);
    }

    byte[] randomOperand() {
      byte[] operand = new byte[1 + rnd.nextInt(6)];
      for (int i = 0; i < operand.length; i++) {
        operand[i] = (byte) rnd.nextInt(256);
      }
      return operand;
    }

    /** Mostly a few keys; one in sixteen a few percent of the key space. */
    void deleteRange() {
      String[] range = randomRange();
      db.deleteRange(bytes(range[0]), bytes(range[1]));
      model.subMap(range[0], true, range[1], false).clear();
    }

    String[] randomRange() {
      int from = rnd.nextInt(3000);
      int length = rnd.nextInt(16) == 0 ? 100 + rnd.nextInt(300) : 1 + rnd.nextInt(20);
      // "k%05d" keys: the end may lie past the last key, and between keys ("k00012x").
      String to = String.format("k%05d", from + length) + (rnd.nextBoolean() ? "x" : "");
      return new String[] {String.format("k%05d", from), to};
    }

    void delete() {
      String k = randomKey();
      db.delete(bytes(k));
      model.remove(k);
    }

    void batch() {
      WriteBatch b = new WriteBatch();
      TreeMap<String, byte[]> pending = new TreeMap<>(model);
      int n = 1 + rnd.nextInt(20);
      for (int i = 0; i < n; i++) {
        String k = randomKey();
        int kind = rnd.nextInt(64);
        if (kind < 16) {
          b.delete(bytes(k));
          pending.remove(k);
        } else if (kind == 16) {
          String[] range = randomRange();
          b.deleteRange(bytes(range[0]), bytes(range[1]));
          pending.subMap(range[0], true, range[1], false).clear();
        } else if (kind < 25) {
          byte[] operand = randomOperand();
          b.merge(bytes(k), operand);
          pending.merge(k, operand, AppendOperator::concat);
        } else {
          byte[] v = randomValue();
          b.put(bytes(k), v);
          pending.put(k, v);
        }
      }
      db.write(b);
      model.clear();
      model.putAll(pending);
    }

    void checkRandomKeyAgainstModel() {
      String k = randomKey();
      byte[] expected = model.get(k);
      byte[] actual = db.get(bytes(k));
      if (expected == null) {
        assertNull(actual, "get(" + k + ") must be absent, " + where());
      } else {
        assertArrayEquals(expected, actual, "get(" + k + "), " + where());
      }
    }

    void takeSnapshot() {
      if (snapshots.size() < 5) {
        snapshots.add(new OpenSnapshot(db.snapshot(), new TreeMap<>(model)));
      }
    }

    void checkSnapshot() {
      if (snapshots.isEmpty()) {
        return;
      }
      OpenSnapshot s = snapshots.get(rnd.nextInt(snapshots.size()));
      String k = randomKey();
      byte[] expected = s.view().get(k);
      byte[] actual = s.snapshot().get(bytes(k));
      if (expected == null) {
        assertNull(actual, "snapshot get(" + k + ") must be absent, " + where());
      } else {
        assertArrayEquals(expected, actual, "snapshot get(" + k + "), " + where());
      }
      if (rnd.nextInt(4) == 0) {
        checkIteration(s.snapshot().iterator(), s.view(), null, null);
      }
    }

    void releaseSnapshot() {
      if (!snapshots.isEmpty()) {
        snapshots.remove(rnd.nextInt(snapshots.size())).snapshot().close();
      }
    }

    void checkBoundedIteration() {
      String a = randomKey();
      String b = randomKey();
      String lo = compareUtf8(a, b) <= 0 ? a : b;
      String hi = compareUtf8(a, b) <= 0 ? b : a;
      CairnIterator it = db.iterator(ReadOptions.DEFAULT.withBounds(bytes(lo), bytes(hi)));
      checkIteration(it, model.subMap(lo, true, hi, false), lo, hi);
    }

    void checkIteration(CairnIterator it, NavigableMap<String, byte[]> expected, String lo, String hi) {
      try (it) {
        if (rnd.nextInt(3) == 0) {
          // Both ways: runs of next() and prev(), changes of direction, every kind of seek.
          IteratorWalk.user(it, expected, ModelTest::bytes, this::randomKey, rnd, 80, this::where);
        } else if (rnd.nextBoolean() || expected.isEmpty()) {
          it.seekToFirst();
          compareFrom(it, expected.entrySet().iterator());
        } else {
          String target = randomKey();
          it.seek(bytes(target));
          String from = lo != null && compareUtf8(target, lo) < 0 ? lo : target;
          if (hi != null && compareUtf8(from, hi) >= 0) {
            assertFalse(it.isValid(), "seek at or past the upper bound must be invalid, " + where());
          } else {
            compareFrom(it, expected.tailMap(from, true).entrySet().iterator());
          }
        }
      }
    }

    void compareFrom(CairnIterator it, Iterator<Map.Entry<String, byte[]>> expected) {
      int checked = 0;
      while (expected.hasNext() && checked < 400) {
        Map.Entry<String, byte[]> e = expected.next();
        assertTrue(it.isValid(), "iterator ended before " + e.getKey() + ", " + where());
        assertEquals(e.getKey(), new String(it.key(), StandardCharsets.UTF_8), "iterator key, " + where());
        assertArrayEquals(e.getValue(), it.value(), "iterator value of " + e.getKey() + ", " + where());
        it.next();
        checked++;
      }
      if (!expected.hasNext()) {
        assertFalse(it.isValid(), "iterator has extra keys, " + where());
      }
    }

    void compactRandomRange() {
      String a = randomKey();
      String b = randomKey();
      if (rnd.nextBoolean()) {
        db.compactRange(null, null);
      } else {
        db.compactRange(bytes(compareUtf8(a, b) <= 0 ? a : b), bytes(compareUtf8(a, b) <= 0 ? b : a));
      }
    }

    /** Statistics restart at every open; the run's totals are kept here. */
    void countBackgroundWork() {
      Stats stats = db.stats();
      flushes += stats.flush().count();
      compactions += stats.compaction().completed();
      appendedTables += stats.block().appendedTables();
      bufferAppends += stats.buffer().appendedFiles();
      levelMoves += stats.compaction().levelMoves();
      bufferColdLeftOut += stats.buffer().coldArrivalsLeftOut();
      bufferTrims += stats.buffer().trimmedFiles();
      bufferShadowed += stats.buffer().shadowedFiles();
      bufferFreezes += stats.buffer().freezes();
      bufferServed += stats.buffer().servedGets();
      bufferScanned += stats.buffer().scannedFromBuffer();
      dlcDelayed += stats.dlc().delayedL0Compactions();
      dlcBursts += stats.dlc().partRuns() + stats.dlc().fullRuns();
    }

    void reopen() {
      snapshots.forEach(s -> s.snapshot().close());
      snapshots.clear();
      countBackgroundWork();
      db.close();
      db = openWatched();
    }
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static int compareUtf8(String a, String b) {
    return Arrays.compareUnsigned(bytes(a), bytes(b));
  }
}

package dev.cairn.db;

import dev.cairn.compaction.buffer.BufferDraft;
import dev.cairn.db.buffer.BufferRuntime;
import dev.cairn.db.buffer.BufferStyle;
import dev.cairn.db.read.VersionLookup;
import dev.cairn.testkit.Seeds;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.compaction.buffer.BufferConfig;
import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.Options;
import dev.cairn.testing.EngineCombo.CompactionStyle;
import dev.cairn.ReadOptions;
import dev.cairn.Stats;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.fs.SeekDelayFileSystem;
import dev.cairn.key.InternalKey;
import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import dev.cairn.version.VersionEdit;
import dev.cairn.testing.EngineCombo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LSbM compaction buffer in the engine: merged files join the buffer and serve reads, the
 * buffer survives a reopen, the trim drops cold files (and their data once unreferenced), a level
 * with repeated keys freezes, and a database reopened with another style stays correct. The trim
 * runs only when the test calls {@link BufferRuntime#trimOnce()} (its interval is an hour).
 */
class BufferEngineTest {
  @TempDir Path dir;

  /**
   * The buffer's settings here: no space bound, whatever a miss costs (the tests of the trim need
   * older runs to stay; the bound has its own tests); cold arrivals kept (the tests load without
   * reads and need the merges to append; the rule that leaves them out has its own test).
   */
  private static final BufferConfig TEST_BUFFER = BufferConfig.defaults().withTrimIntervalMillis(3_600_000)
      .withTrimPassesPerBaseLevel(0).withMaxSpaceFraction(1000).withFullBoundMissMicros(0)
      .withTrimUnitBytes(256 << 10).withKeepColdArrivals(true);

  /**
   * Flushes do not cache their blocks here: the tests load without reads and reason about which
   * blocks reads warmed (flush caching has its own tests).
   */
  private static Options options(CompactionStyle style) {
    return EngineCombo.tinyTree().compaction(style.leveled(TEST_BUFFER))
        .flushCaching(Options.FlushCaching.NEVER).build();
  }

  /** The compaction buffer of {@code db}, opened with a BUFFER execution. */
  private static BufferRuntime buffer(DbImpl db) {
    return ((BufferStyle) db.compactions().style()).runtime();
  }

  /** {@link #buffered()}'s options with {@code buffer} as the buffer's settings. */
  private static Options.Builder bufferedWith(BufferConfig buffer) {
    return buffered().toBuilder().compaction(CompactionStyle.BUFFER.leveled(buffer));
  }

  private static Options buffered() {
    return options(CompactionStyle.BUFFER);
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Writes {@code rounds} rounds of unique keys in random order, each compacted to the bottom. */
  private static void load(Cairn db, TreeMap<String, byte[]> model, SplittableRandom r, int rounds, int keySpace) {
    for (int round = 0; round < rounds; round++) {
      overwriteRound(db, model, r, round, 1500, keySpace);
      db.compactRange(null, null);
    }
  }

  /**
   * Round {@code round} of {@code count} puts of random keys below {@code keySpace} (so later
   * rounds overwrite earlier ones), kept in {@code model}, then a flush.
   */
  private static void overwriteRound(Cairn db, TreeMap<String, byte[]> model, SplittableRandom r, int round, int count,
      int keySpace) {
    for (int i = 0; i < count; i++) {
      String k = String.format("k%06d", r.nextInt(keySpace));
      byte[] v = b(k + "@" + round + "-" + i + "-".repeat(r.nextInt(60)));
      db.put(b(k), v);
      model.put(k, v);
    }
    db.flush();
  }

  private static void checkReads(Cairn db, TreeMap<String, byte[]> model, String when) {
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      assertArrayEquals(e.getValue(), db.get(b(e.getKey())), "get(" + e.getKey() + ") " + when);
    }
    try (CairnIterator it = db.iterator(ReadOptions.DEFAULT)) {
      it.seekToFirst();
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        assertTrue(it.isValid(), "iterator ends early " + when);
        assertArrayEquals(b(e.getKey()), it.key(), when);
        assertArrayEquals(e.getValue(), it.value(), when);
        it.next();
      }
      assertFalse(it.isValid(), "iterator goes past the model " + when);
    }
  }

  /** Every level's buffer runs, level 0 first. */
  private static List<BufferRun<FileMetaData>> bufferRuns(Version v) {
    List<BufferRun<FileMetaData>> out = new ArrayList<>();
    for (int level = 0; level < v.numLevels(); level++) {
      out.addAll(v.bufferRuns(level));
    }
    return out;
  }

  /** The files the buffers' top-level entries name. */
  private static List<FileMetaData> bufferFiles(Version v) {
    return bufferRuns(v).stream().flatMap(r -> r.files().stream()).toList();
  }

  private static String renderBuffers(Version v) {
    StringBuilder sb = new StringBuilder();
    for (int level = 0; level < v.numLevels(); level++) {
      sb.append(level).append(':').append(v.bufferRuns(level)).append('\n');
    }
    return sb.toString();
  }

  private boolean onDisk(FileMetaData f) {
    return Files.exists(dir.resolve(FileNames.table(f.number())));
  }

  @Test
  void mergesOfFilesNoReadWarmedLeaveNothingInTheBufferAndWarmOnesAreAppended() {
    long seed = Seeds.seed();
    Options leaveColdOut = bufferedWith(TEST_BUFFER.withKeepColdArrivals(false)).build();
    TreeMap<String, byte[]> model = new TreeMap<>();
    SplittableRandom r = new SplittableRandom(seed);
    // A small key space, so that later rounds overwrite keys: a file left out wrongly would let
    // an older version answer.
    int keySpace = 3_000;
    try (DbImpl db = (DbImpl) Cairn.open(dir, leaveColdOut)) {
      load(db, model, r, 3, keySpace); // a load with no reads: no block is warm
      Stats.Buffer stats = db.stats().buffer();
      assertEquals(0, stats.appendedFiles(), "seed " + seed + ": " + stats);
      assertTrue(stats.coldArrivalsLeftOut() > 0, "seed " + seed + ": " + stats);
      assertEquals(0, stats.bytes(), "seed " + seed + ": " + stats);
      assertTrue(bufferFiles(db.engine().versions().current()).isEmpty(), renderBuffers(db.engine().versions().current()));

      checkReads(db, model, "after the cold load, seed " + seed); // every block of the data read: warm
      load(db, model, r, 1, keySpace);
      stats = db.stats().buffer();
      assertTrue(stats.appendedFiles() > 0, "merges of warm files append, seed " + seed + ": " + stats);
      Version v = db.engine().versions().current();
      assertFalse(bufferFiles(v).isEmpty(), "seed " + seed + "\n" + renderBuffers(v));
      // The merges' targets arrive warm; a cold input (a fresh L0 file) stays where a warm
      // target of its merge overlaps it, so not every buffer file is warm, but some are.
      assertTrue(bufferFiles(v).stream().anyMatch(f -> db.engine().blockCache().hasWarmBlock(f.number())),
          "seed " + seed + "\n" + renderBuffers(v));
      checkReads(db, model, "with the warm arrivals, seed " + seed);
    }
    try (DbImpl db = (DbImpl) Cairn.open(dir, leaveColdOut)) {
      checkReads(db, model, "after a reopen, seed " + seed);
    }
  }

  @Test
  void mergedFilesJoinTheBufferServeReadsAndSurviveAReopen() {
    long seed = Seeds.seed();
    TreeMap<String, byte[]> model = new TreeMap<>();
    String buffers;
    try (DbImpl db = (DbImpl) Cairn.open(dir, buffered())) {
      load(db, model, new SplittableRandom(seed), 3, 1_000_000);
      Version v = db.engine().versions().current();
      List<FileMetaData> files = bufferFiles(v);
      assertFalse(files.isEmpty(), "merges appended their inputs, seed " + seed + "\n" + v);
      assertTrue(files.stream().allMatch(this::onDisk), "buffer files are kept on disk");
      checkReads(db, model, "with the buffer, seed " + seed);
      Set<Long> levelFiles = new HashSet<>();
      for (int level = 0; level < v.numLevels(); level++) {
        v.files(level).forEach(f -> levelFiles.add(f.number()));
      }
      assertTrue(files.stream().anyMatch(f -> !levelFiles.contains(f.number())
              && db.engine().blockCache().cachedBlockCount(f.number()) > 0),
          "gets read (and cached) blocks of files only the buffer holds, seed " + seed);
      Stats.Buffer stats = db.stats().buffer();
      assertTrue(stats.enabled() && stats.appendedFiles() > 0 && stats.bytes() > 0, stats.toString());
      assertTrue(stats.servedGets() > 0, "buffer files answered gets: " + stats);
      assertEquals(stats.servedGets(), stats.readsByLevel().stream().mapToLong(Stats.BufferLevelReads::served).sum(),
          "the levels' counts add up: " + stats);
      assertTrue(stats.readsByLevel().get(0).served() == 0, "L0 has no buffer: " + stats);
      // Served gets read blocks of buffer files no read had cached: counted as the buffer's.
      List<Stats.LevelReads> byLevel = db.stats().reads().byLevel();
      assertTrue(byLevel.stream().mapToLong(Stats.LevelReads::bufferBlockReads).sum() > 0, byLevel.toString());
      assertTrue(byLevel.stream().allMatch(r -> r.bufferBlockReads() <= r.blockReads()), byLevel.toString());
      buffers = renderBuffers(db.engine().versions().current());
    }
    try (DbImpl db = (DbImpl) Cairn.open(dir, buffered())) {
      assertEquals(buffers, renderBuffers(db.engine().versions().current()), "the manifest kept the buffer");
      checkReads(db, model, "after reopen, seed " + seed);
    }
  }

  /**
   * A level whose buffer answers no read for a whole trimIntervalMillis is emptied, newest run
   * included, even while its blocks are cached (with no reads nothing evicts them); reads stay
   * right. Passes are driven by hand, on a clock the test moves.
   */
  @Test
  void aBufferNoReadUsesForAWholeIntervalIsDroppedNewestRunIncluded() {
    long seed = Seeds.seed();
    TreeMap<String, byte[]> model = new TreeMap<>();
    AtomicLong clock = new AtomicLong(1_000_000);
    try (DbImpl db = (DbImpl) Cairn.open(dir, buffered())) {
      buffer(db).useClock(clock::get);
      load(db, model, new SplittableRandom(seed), 4, 1_000_000);
      assertFalse(bufferFiles(db.engine().versions().current()).isEmpty(), "the load leaves a buffer, seed " + seed);
      clock.addAndGet(3_600_000 - 1);
      buffer(db).trimOnce();
      assertFalse(bufferFiles(db.engine().versions().current()).isEmpty(), "idle for less than the interval: kept");
      clock.addAndGet(1);
      buffer(db).trimOnce();
      assertEquals(List.of(), bufferFiles(db.engine().versions().current()), "idle for the interval: emptied, seed " + seed);
      assertEquals(0, db.stats().buffer().bytes());
      checkReads(db, model, "after the idle drop, seed " + seed);
    }
  }

  @Test
  void withoutReadsTheTrimDropsEveryBufferFileNewestRunIncludedAndItsDataOnceUnreferenced() {
    long seed = Seeds.seed();
    TreeMap<String, byte[]> model = new TreeMap<>();
    try (Cairn db = Cairn.open(dir, buffered())) {
      load(db, model, new SplittableRandom(seed), 4, 1_000_000);
    }
    // Reopened: the block cache is empty, so every buffer file is cold.
    try (DbImpl db = (DbImpl) Cairn.open(dir, buffered())) {
      Version before = db.engine().versions().current();
      List<FileMetaData> trimmable = new ArrayList<>();
      int trimmableEntries = 0; // file entries, carried ones included: each all cold, so one removed run
      for (int level = 1; level < before.numLevels(); level++) {
        List<BufferRun<FileMetaData>> tables = before.bufferRuns(level);
        tables.forEach(t -> trimmable.addAll(t.allFiles()));
        trimmableEntries += fileEntries(tables);
      }
      assertFalse(trimmable.isEmpty(), "some level has a buffer run with files, seed " + seed + "\n" + before);
      CairnIterator pinning = db.iterator(ReadOptions.DEFAULT); // pins `before`
      assertEquals(0, buffer(db).trimOnce(), "the first pass after open lets every table warm up");
      assertEquals(trimmableEntries, buffer(db).trimOnce());
      Version after = db.engine().versions().current();
      for (int level = 1; level < after.numLevels(); level++) {
        after.bufferRuns(level).forEach(t -> assertTrue(t.files().isEmpty(), "trimmed: " + t));
      }
      Set<Long> live = db.engine().versions().liveFileNumbers();
      assertTrue(trimmable.stream().allMatch(this::onDisk), "a pinned version still references them");
      pinning.close();
      db.engine().mutex().lock();
      try {
        db.engine().background().collectObsoleteFiles(true);
      } finally {
        db.engine().mutex().unlock();
      }
      Set<Long> nowLive = db.engine().versions().liveFileNumbers();
      for (FileMetaData f : trimmable) {
        assertEquals(nowLive.contains(f.number()), onDisk(f), "file #" + f.number() + " (live before: "
            + live.contains(f.number()) + ")");
      }
      assertTrue(db.stats().buffer().trimmedFiles() >= trimmable.size());
      checkReads(db, model, "after the trim, seed " + seed);
    }
  }

  @Test
  void theTrimKeepsTheFilesWhoseBlocksAreCachedAndRemovesTheOthers() throws Exception {
    TreeMap<String, byte[]> model = new TreeMap<>();
    levelsWithAnL0FileOverEverything(model, 3);
    // Reopened: the block cache is empty. Two files of one level join an older buffer run.
    try (DbImpl db = (DbImpl) Cairn.open(dir, buffered())) {
      StandIns in = StandIns.of(db.engine().versions().current());
      int bufferLevel = in.level();
      FileMetaData hot = in.first();
      FileMetaData cold = in.second();
      FileMetaData newer = in.l0();
      installBuffer(db, d -> {
        d.append(bufferLevel, hot);
        d.append(bufferLevel, cold);
      });
      installBuffer(db, d -> d.append(bufferLevel, newer)); // overlaps both: the newest table
      assertEquals(0, buffer(db).trimOnce(), "the first pass lets every table warm up");
      for (String k : model.subMap(new String(hot.smallestUserKey(), StandardCharsets.UTF_8), true,
          new String(hot.largestUserKey(), StandardCharsets.UTF_8), true).keySet()) {
        assertArrayEquals(model.get(k), db.get(b(k))); // walks to `hot` (or `newer`) and caches it
      }
      assertTrue(buffer(db).trimOnce() > 0, "the cold file goes");
      Set<Long> kept = bufferFileNumbers(db);
      assertTrue(kept.contains(hot.number()), "the file reads warmed stays: " + renderBuffers(db.engine().versions().current()));
      assertFalse(kept.contains(cold.number()), "the file no read touched goes: " + renderBuffers(db.engine().versions().current()));
      // The newest run is judged like the others: reads in hot's range touched few of its blocks.
      assertFalse(kept.contains(newer.number()), "the newest run's cold file goes too: " + renderBuffers(db.engine().versions().current()));
      checkReads(db, model, "after the trim");
    }
  }

  @Test
  void repeatedKeysFreezeTheLevelAndReadsStayRight() {
    long seed = Seeds.seed();
    TreeMap<String, byte[]> model = new TreeMap<>();
    Options papersFreeze = bufferedWith(TEST_BUFFER.withFreezeRepeatedFraction(0.1)) // off by default
        .build();
    try (DbImpl db = (DbImpl) Cairn.open(dir, papersFreeze)) {
      // 300 keys, overwritten over and over: every merge into L1 drops most of what it reads.
      SplittableRandom r = new SplittableRandom(seed);
      for (int round = 0; round < 12; round++) {
        overwriteRound(db, model, r, round, 2000, 300);
      }
      db.compactRange(null, null);
      Stats.Buffer stats = db.stats().buffer();
      assertTrue(stats.freezes() > 0, "repeated data froze a buffer: " + stats + ", seed " + seed);
      checkReads(db, model, "with frozen buffers, seed " + seed);
    }
  }

  @Test
  void aBufferedDatabaseReopenedWithTheTableStyleStaysRightWhileItsBufferDrains() {
    long seed = Seeds.seed();
    TreeMap<String, byte[]> model = new TreeMap<>();
    SplittableRandom r = new SplittableRandom(seed);
    try (Cairn db = Cairn.open(dir, buffered())) {
      load(db, model, r, 3, 1_000_000);
    }
    try (DbImpl db = (DbImpl) Cairn.open(dir, options(CompactionStyle.TABLE))) {
      int before = bufferFiles(db.engine().versions().current()).size();
      assertTrue(before > 0, "the buffer was persisted, seed " + seed);
      for (String k : List.copyOf(model.keySet())) { // the old buffer holds only stale values now
        byte[] v = b(k + "@table");
        db.put(b(k), v);
        model.put(k, v);
      }
      db.flush();
      checkReads(db, model, "before compacting, seed " + seed);
      db.compactRange(null, null);
      checkReads(db, model, "under the table style, seed " + seed);
      assertEquals(0, db.stats().buffer().appendedFiles(), "the table style never appends");
    }
  }

  /**
   * A bottommost merge drops a tombstone, so the level no longer has the key; the buffer file that
   * holds the tombstone is then the only thing hiding an older buffer file's value, and must not
   * simply go: a later appending merge (which writes no marker on its output level) may produce
   * a level file over the gap, and the walk would reach the old value.
   */
  @Test
  void aBufferFileHidingAnOlderValueOutsideTheLevelIsNotDroppedSoADeletedKeyStaysDeleted() {
    Options tiny = Options.builder()
        .memtableBytes(1 << 20)
        .blockBytes(512)
        .bloomBitsPerKey(0) // no filter may answer "not here" for m before the walk does
        .targetFileBytes(16 << 10) // the smallest: one value per file
        // never freeze: the delete's merge must append its input
        .compaction(CompactionStyle.BUFFER.leveled(BufferConfig.defaults().withTrimIntervalMillis(3_600_000)
            .withTrimPassesPerBaseLevel(0).withFreezeRepeatedFraction(1)
            .withTrimUnitBytes(256 << 10).withMaxSpaceFraction(1000).withFullBoundMissMicros(0)))
        .build();
    byte[] big = b("v1" + "-".repeat(20 << 10));
    try (Cairn db = Cairn.open(dir, tiny)) {
      for (String k : List.of("a", "c", "m", "x", "z")) {
        db.put(b(k), big);
      }
      db.flush();
      db.compactRange(null, null);
      db.delete(b("m"));
      db.flush();
      db.compactRange(null, null);
      assertEquals(null, db.get(b("m")), "after the bottommost merge");
    }
    try (DbImpl db = (DbImpl) Cairn.open(dir, tiny.toBuilder().targetFileBytes(1 << 20).build())) {
      byte[] big2 = b("v2" + "-".repeat(20 << 10)); // big enough that the level grows: no freeze
      db.put(b("b"), big2);
      db.put(b("y"), big2);
      db.flush();
      db.compactRange(null, null);
      byte[] m = db.get(b("m"));
      assertTrue(m == null, () -> "deleted m came back (" + m.length + " bytes)\n" + renderBuffers(db.engine().versions().current()));
      assertArrayEquals(big, db.get(b("a")));
      assertArrayEquals(big2, db.get(b("y")));
    }
  }

  /**
   * Builds, under the table style (no buffer), two rounds of levels and an L0 file over the
   * whole key space: level files to stand in as buffer files, and one that overlaps them all (to
   * make a newer buffer run). Closed afterwards, so a reopen starts with an empty cache.
   */
  private void levelsWithAnL0FileOverEverything(TreeMap<String, byte[]> model, long seed) {
    levelsWithAnL0FileOverEverything(model, seed, true);
  }

  /** @param filters whether the tables are built with Bloom filters */
  private void levelsWithAnL0FileOverEverything(TreeMap<String, byte[]> model, long seed, boolean filters) {
    Options options = options(CompactionStyle.TABLE);
    if (!filters) {
      options = options.toBuilder().bloomBitsPerKey(0).build();
    }
    try (Cairn db = Cairn.open(dir, options)) {
      load(db, model, new SplittableRandom(seed), 2, 1_000_000);
      for (int i = 0; i < 200; i++) {
        String k = String.format("k%06d", i * 5000);
        db.put(b(k), b("new"));
        model.put(k, b("new"));
      }
      db.flush();
    }
  }

  /**
   * The files {@link #levelsWithAnL0FileOverEverything} leaves to stand in as buffer files: the
   * first two of the first level holding two, and the L0 file over the whole key space.
   */
  private record StandIns(int level, FileMetaData first, FileMetaData second, FileMetaData l0) {
    static StandIns of(Version v) {
      int level = 1;
      while (v.files(level).size() < 2) {
        level++;
      }
      return new StandIns(level, v.files(level).get(0), v.files(level).get(1), v.files(0).get(0));
    }
  }

  /**
   * A key no entry of its level's buffer covers is read from the level's file as if there were no
   * buffer: no walk is counted (nor paid for); a key inside the buffer's range walks it, and when
   * the walk finds nothing the level's file answers, right either way.
   */
  @Test
  void aKeyNoBufferEntryCoversSkipsTheWalk() throws Exception {
    TreeMap<String, byte[]> model = new TreeMap<>();
    levelsWithAnL0FileOverEverything(model, 7);
    try (DbImpl db = (DbImpl) Cairn.open(dir, buffered())) {
      StandIns in = StandIns.of(db.engine().versions().current());
      int level = in.level();
      installBuffer(db, d -> d.append(level, in.first())); // covers the first file's range only
      List<String> outside = keysOf(model, in.second());
      List<String> inside = keysOf(model, in.first());
      assertFalse(outside.isEmpty() || inside.isEmpty(), renderBuffers(db.engine().versions().current()));
      Stats.BufferLevelReads before = db.stats().buffer().readsByLevel().get(level);
      for (String k : outside) {
        assertArrayEquals(model.get(k), db.get(b(k)), "get(" + k + ")");
      }
      Stats.BufferLevelReads after = db.stats().buffer().readsByLevel().get(level);
      assertEquals(before, after, "no walk for keys outside the buffer's range");
      for (String k : inside) {
        assertArrayEquals(model.get(k), db.get(b(k)), "get(" + k + ")");
      }
      Stats.BufferLevelReads walked = db.stats().buffer().readsByLevel().get(level);
      assertTrue(walked.served() + walked.stoppedAtMarker() + walked.fellThrough() > after.served() + after.stoppedAtMarker()
          + after.fellThrough(), "keys inside walk it: " + walked);
      checkReads(db, model, "with a buffer over part of a level");
    }
  }

  /** The model's keys inside {@code f}'s range. */
  private static List<String> keysOf(TreeMap<String, byte[]> model, FileMetaData f) {
    return List.copyOf(model.subMap(new String(f.smallestUserKey(), StandardCharsets.UTF_8), true,
        new String(f.largestUserKey(), StandardCharsets.UTF_8), true).keySet());
  }

  /** Installs the buffer change {@code change} makes to a draft of the current version. */
  private static void installBuffer(DbImpl db, java.util.function.Consumer<BufferDraft<FileMetaData>> change) throws Exception {
    db.engine().mutex().lock();
    try {
      BufferDraft<FileMetaData> draft = new BufferDraft<>(db.engine().versions().current(), db.engine().versions()::newFileNumber);
      change.accept(draft);
      VersionEdit edit = new VersionEdit();
      draft.writeTo(edit.bufferSink());
      db.engine().versions().logAndApply(edit);
    } finally {
      db.engine().mutex().unlock();
    }
  }

  private static Set<Long> bufferFileNumbers(DbImpl db) {
    Set<Long> out = new HashSet<>();
    bufferFiles(db.engine().versions().current()).forEach(f -> out.add(f.number()));
    return out;
  }

  /**
   * A file appended into the newest table just before a pass, whose table a newer one then
   * displaces, gets its warm-up interval all the same: the next pass does not judge it (it was
   * not there at the previous pass), the one after does.
   */
  @Test
  void aFileAppendedIntoTheNewestTableJustBeforeAPassIsNotTrimmedAtTheNextPass() throws Exception {
    // Level files to stand in as buffer files, built under the table style (no buffer yet).
    levelsWithAnL0FileOverEverything(new TreeMap<>(), 42);
    // Reopened: the block cache is empty, so every file is cold.
    try (DbImpl db = (DbImpl) Cairn.open(dir, buffered())) {
      StandIns in = StandIns.of(db.engine().versions().current());
      int bufferLevel = in.level();
      FileMetaData early = in.first();
      FileMetaData late = in.second();
      FileMetaData overlapping = in.l0();
      installBuffer(db, d -> d.append(bufferLevel, early));
      assertEquals(0, buffer(db).trimOnce(), "the first pass lets every table warm up");
      installBuffer(db, d -> {
        d.append(bufferLevel, late); // joins early's table, the newest
        d.append(bufferLevel, overlapping); // overlaps late: a new newest table
      });
      assertEquals(2, db.engine().versions().current().bufferRuns(bufferLevel).size(), renderBuffers(db.engine().versions().current()));
      assertEquals(1, buffer(db).trimOnce(), "only the file present at the previous pass is judged");
      Set<Long> kept = bufferFileNumbers(db);
      assertFalse(kept.contains(early.number()), "cold and old enough: trimmed");
      assertTrue(kept.contains(late.number()), "appended since the previous pass, into a table no longer newest: still warming");
      assertEquals(2, buffer(db).trimOnce(), "a pass later it is judged, and so is the newest run's file");
      assertFalse(bufferFileNumbers(db).contains(late.number()));
      assertFalse(bufferFileNumbers(db).contains(overlapping.number()), "the newest run is judged like the others");
    }
  }

  /**
   * The space bound holds at every moment, not only at trim passes (the trim never runs here):
   * after every round of overwrites, flushes and compactions the buffer's extra bytes are within
   * the configured fraction of the levels' bytes, evictions happened, and reads stay right. A
   * bound of 0 keeps no buffer file at all.
   */
  @ParameterizedTest
  @ValueSource(doubles = {0.05, 0.0})
  void theBufferStaysWithinItsSpaceBoundAtEveryInstall(double fraction) {
    TreeMap<String, byte[]> model = new TreeMap<>();
    Options options = bufferedWith(TEST_BUFFER.withMaxSpaceFraction(fraction)).build();
    SplittableRandom r = new SplittableRandom(17);
    long appended = 0;
    try (Cairn db = Cairn.open(dir, options)) {
      for (int round = 0; round < 12; round++) {
        overwriteRound(db, model, r, round, 3000, 20_000);
        Stats stats = db.stats();
        assertTrue(stats.buffer().bytes() <= fraction * stats.totalTableBytes(),
            "round " + round + ": buffer " + stats.buffer().bytes() + " bytes over " + fraction + " of the levels' "
                + stats.totalTableBytes());
        appended = stats.buffer().appendedFiles();
      }
      Stats stats = db.stats();
      assertTrue(appended > 0, "merges appended to the buffer");
      assertTrue(stats.buffer().evictedFiles() > 0, "the bound evicted files: " + stats.buffer());
      checkReads(db, model, "with evictions, bound " + fraction);
    }
  }

  /**
   * The space bound follows what a miss costs (docs/compaction.md, "What a miss costs"): the
   * point reads' block reads are timed, and below {@code fullBoundMissMicros} the bound shrinks in
   * proportion. Behind a simulated disk whose seeks take a millisecond, ten times the full-bound
   * cost set here, the buffer keeps its whole bound and holds warm merges; with the full bound set
   * at a minute's miss, so that any real miss is next to free, the bound falls to nearly nothing
   * and every install holds the buffer under it. Reads stay right in both.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void theSpaceBoundFollowsWhatAMissCosts(boolean seeksAreSlow) {
    double max = 0.5;
    BufferConfig config = BufferConfig.defaults().withTrimIntervalMillis(3_600_000).withTrimPassesPerBaseLevel(0)
        .withMaxSpaceFraction(max).withFullBoundMissMicros(seeksAreSlow ? 100 : 60_000_000);
    Options.Builder b = options(CompactionStyle.BUFFER).toBuilder().compaction(CompactionStyle.BUFFER.leveled(config));
    if (seeksAreSlow) {
      b.fileSystem(SeekDelayFileSystem.onTables(new LocalFileSystem(), Duration.ofMillis(1)));
    }
    TreeMap<String, byte[]> model = new TreeMap<>();
    SplittableRandom r = new SplittableRandom(23);
    try (Cairn db = Cairn.open(dir, b.build())) {
      for (int round = 0; round < 6; round++) {
        overwriteRound(db, model, r, round, 3000, 20_000);
        for (int i = 0; i < 400; i++) { // reads warm blocks, so that merges have something to keep
          String k = String.format("k%06d", r.nextInt(20_000));
          assertArrayEquals(model.get(k), db.get(b(k)), "get(" + k + ")");
        }
      }
      Stats stats = db.stats();
      Stats.Buffer buffer = stats.buffer();
      assertTrue(buffer.appendedFiles() > 0, "warm merges appended: " + buffer);
      assertTrue(buffer.missCostMicros() >= 0, "the reads' misses were timed: " + buffer);
      if (seeksAreSlow) {
        assertTrue(buffer.missCostMicros() >= 100, "a millisecond's seek on most misses: " + buffer);
        assertEquals(max, buffer.boundFraction(), "the whole bound: " + buffer);
        assertTrue(buffer.bytes() > 0, "the buffer keeps warm merges: " + buffer);
      } else {
        assertTrue(buffer.boundFraction() < max / 1000, "next to no bound: " + buffer);
        assertTrue(buffer.evictedFiles() > 0, "the bound evicted what merges appended: " + buffer);
        assertTrue(buffer.bytes() <= buffer.boundFraction() * stats.totalTableBytes(),
            buffer.bytes() + " bytes over the bound: " + buffer);
      }
      checkReads(db, model, "with the bound at " + buffer.boundFraction());
    }
  }

  /**
   * With no writes, arrivals pace the trim: once the writes have stopped and a pass has run after
   * them, a merge that appends to the buffer makes the next pass due at once, where the interval
   * alone (an hour here) would keep the arrivals whole until then.
   */
  @Test
  void arrivalsAfterTheWritesStopMakeAPassDue() throws Exception {
    Options options = bufferedWith(TEST_BUFFER.withTrimPassesPerBaseLevel(32)).build();
    TreeMap<String, byte[]> model = new TreeMap<>();
    SplittableRandom r = new SplittableRandom(31);
    try (Cairn db = Cairn.open(dir, options)) {
      for (int round = 0; round < 4; round++) {
        overwriteRound(db, model, r, round, 1500, 20_000); // a pass per 2 KiB written
      }
      assertTrue(passesOnceQuiet(db) > 0, "the writes paced passes");
      // A pass that has seen every write: the pacing's last one may have begun before the last
      // few writes on a busy machine, and arrivals pace the trim only once nothing was written
      // since a pass.
      buffer((DbImpl) db).trimOnce();
      long passes = db.stats().buffer().trimPasses();
      long appended = db.stats().buffer().appendedFiles();
      db.compactRange(null, null); // merges down with no write: arrivals only
      assertTrue(db.stats().buffer().appendedFiles() > appended, "the merges appended: " + db.stats().buffer());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (db.stats().buffer().trimPasses() == passes) {
        assertTrue(System.nanoTime() < deadline, "no pass after the arrivals: " + db.stats().buffer());
        Thread.sleep(20);
      }
      checkReads(db, model, "after the pass the arrivals made due");
    }
  }

  /** The trim passes once none has run for a second (the writes' last pass has run). */
  private static long passesOnceQuiet(Cairn db) throws InterruptedException {
    long passes = db.stats().buffer().trimPasses();
    for (long seen = -1; seen != passes; passes = db.stats().buffer().trimPasses()) {
      seen = passes;
      Thread.sleep(1000);
    }
    return passes;
  }

  /**
   * A store that has stopped writing installs nothing, so the trim pass applies a bound the miss
   * cost has shrunk: a buffer built by a load without reads (no miss timed: the whole bound) stays
   * through reads that time their misses, and the next pass evicts it to the cost's bound.
   */
  @Test
  void aTrimPassAppliesTheBoundWhenNoWriteInstallsAnything() {
    BufferConfig config = TEST_BUFFER.withMaxSpaceFraction(0.5).withFullBoundMissMicros(60_000_000);
    TreeMap<String, byte[]> model = new TreeMap<>();
    try (DbImpl db = (DbImpl) Cairn.open(dir, bufferedWith(config).build())) {
      load(db, model, new SplittableRandom(29), 3, 20_000);
      Stats.Buffer before = db.stats().buffer();
      assertTrue(before.bytes() > 0 && Double.isNaN(before.missCostMicros()), "no read yet, the whole bound: " + before);
      checkReads(db, model, "before the pass"); // every key: far more than a window of misses
      assertEquals(before.bytes(), db.stats().buffer().bytes(), "reads install nothing");
      buffer(db).trimOnce();
      Stats stats = db.stats();
      Stats.Buffer after = stats.buffer();
      assertTrue(after.missCostMicros() > 0, "the pass sampled the timed misses: " + after);
      assertTrue(after.evictedFiles() > before.evictedFiles(), "the pass evicted for space: " + after);
      assertTrue(after.bytes() <= after.boundFraction() * stats.totalTableBytes(), after.bytes() + " bytes over the bound: "
          + after);
      checkReads(db, model, "after the pass");
    }
  }

  /**
   * A cold run of a newer buffer run over cached blocks of an older one becomes a filter marker
   * when its file has a filter: the walks for keys it never held pass on to the older blocks, and
   * its disk space is freed, whatever the space budget. A file without a filter cannot leave
   * one: its cold run stays while the buffer is within its space budget (a plain marker would
   * stop the walks those blocks serve), and with no budget (the paper's trim) becomes that
   * marker, hiding the older file. Reads stay right in every case.
   */
  @ParameterizedTest
  @CsvSource({"4.0, true", "0.0, true", "4.0, false", "0.0, false"})
  void aColdRunOverAnOlderTablesCachedBlocksLeavesItsFilterOrStaysWithinTheSpaceBudget(double budget, boolean filters)
      throws Exception {
    TreeMap<String, byte[]> model = new TreeMap<>();
    levelsWithAnL0FileOverEverything(model, 5, filters);
    Options options = bufferedWith(TEST_BUFFER.withColdRunBudget(budget)).build();
    try (DbImpl db = (DbImpl) Cairn.open(dir, options)) {
      StandIns in = StandIns.of(db.engine().versions().current());
      int bufferLevel = in.level();
      FileMetaData older = in.first();
      FileMetaData newer = in.l0(); // spans every key: over all of `older`
      installBuffer(db, d -> d.append(bufferLevel, older));
      installBuffer(db, d -> d.append(bufferLevel, newer));
      installBuffer(db, d -> d.append(bufferLevel, in.second())); // newest: the two above are trimmable
      assertEquals(0, buffer(db).trimOnce(), "the first pass lets every table warm up");
      // Read the keys of `older` that `newer` does not hold: the walks pass `newer` (its filter or
      // index says no) and cache `older`'s blocks; `newer`'s blocks stay cold.
      int warmed = 0;
      for (String k : model.subMap(new String(older.smallestUserKey(), StandardCharsets.UTF_8), true,
          new String(older.largestUserKey(), StandardCharsets.UTF_8), true).keySet()) {
        if (!VersionLookup.getFromTable(db.engine().tableCache(), newer, b(k), InternalKey.MAX_SEQUENCE, false).isDecided()) {
          assertArrayEquals(model.get(k), db.get(b(k)));
          warmed++;
        }
      }
      assertTrue(warmed > 0, "some key of the older file is not in the newer one");
      buffer(db).trimOnce();
      List<BufferEntry.File> files = new ArrayList<>();
      db.engine().versions().current().bufferRuns(bufferLevel).forEach(t -> t.entries().forEach(e -> {
        if (e instanceof BufferEntry.File<FileMetaData> f) {
          files.add(f);
        }
      }));
      String buffer = "budget " + budget + ", filters " + filters + ": " + renderBuffers(db.engine().versions().current());
      assertEquals(!filters && budget > 0, files.stream().anyMatch(f -> f.meta().number() == newer.number()
          && f.overlaps(older.smallestUserKey(), older.largestUserKey())), "the cold run over older's range; " + buffer);
      assertEquals(filters || budget > 0, files.stream().anyMatch(f -> f.meta().number() == older.number()),
          "older serves on; a plain marker hides it and the collector drops it; " + buffer);
      assertEquals(filters, db.engine().versions().current().bufferRuns(bufferLevel).stream()
          .flatMap(t -> t.entries().stream())
          .anyMatch(e -> e instanceof BufferEntry.Removed<FileMetaData> m && !m.hidesAll()
              && m.overlaps(older.smallestUserKey(), older.largestUserKey())), "a filter marker over older; " + buffer);
      checkReads(db, model, "after the trim, budget " + budget + ", filters " + filters);
    }
  }

  /**
   * With trim units smaller than a file, the trim keeps the block runs reads warmed as parts of
   * the file and turns the rest into markers; reads stay right, the parts survive a reopen, and
   * the file stays on disk while a part of it is in the buffer.
   */
  @Test
  void theTrimKeepsAFilesHotBlockRunsAsPartsAndRemovesItsColdOnes() throws Exception {
    TreeMap<String, byte[]> model = new TreeMap<>();
    levelsWithAnL0FileOverEverything(model, 7);
    Options units = Options.builder().memtableBytes(64 << 10).blockBytes(512).targetFileBytes(16 << 10)
        .baseLevelBytes(64 << 10).l0CompactionTrigger(2).blockCacheBytes(4 << 20)
        .compaction(CompactionStyle.BUFFER.leveled(
            BufferConfig.defaults().withTrimIntervalMillis(3_600_000).withTrimPassesPerBaseLevel(0).withTrimUnitBytes(1024)))
        .build();
    FileMetaData target;
    int level = 1;
    List<BufferRun<FileMetaData>> before;
    try (DbImpl db = (DbImpl) Cairn.open(dir, units)) {
      Version v = db.engine().versions().current();
      while (v.files(level).isEmpty()) {
        level++;
      }
      int bufferLevel = level;
      target = v.files(level).get(0);
      installBuffer(db, d -> d.append(bufferLevel, target));
      assertEquals(0, buffer(db).trimOnce(), "the first pass lets every table warm up");
      // Warm the first half of the target's keys: a read there walks the buffer to the target.
      List<String> targetKeys = new ArrayList<>(model.subMap(
          new String(target.smallestUserKey(), StandardCharsets.UTF_8), true,
          new String(target.largestUserKey(), StandardCharsets.UTF_8), true).keySet());
      List<String> warm = targetKeys.subList(0, targetKeys.size() / 2);
      for (String k : warm) {
        assertArrayEquals(model.get(k), db.get(b(k)));
      }
      assertTrue(buffer(db).trimOnce() > 0, "the cold runs of the target are removed");
      before = db.engine().versions().current().bufferRuns(level);
      BufferRun<FileMetaData> targetTable = before.get(before.size() - 1);
      List<BufferEntry.File> parts = new ArrayList<>();
      targetTable.entries().forEach(e -> {
        if (e instanceof BufferEntry.File<FileMetaData> f) {
          parts.add(f);
        }
      });
      assertFalse(parts.isEmpty(), "the warmed runs stay: " + targetTable);
      // The cold runs' markers hide nothing older here (the oldest table): the collector drops them.
      assertTrue(parts.stream().allMatch(p -> p.meta().number() == target.number() && !p.whole()), targetTable.toString());
      int coveredWarm = 0;
      for (String k : warm) {
        coveredWarm += targetTable.covering(b(k)) instanceof BufferEntry.File ? 1 : 0;
      }
      assertTrue(coveredWarm >= warm.size() / 2, "most warmed keys stay in parts (" + coveredWarm + " of "
          + warm.size() + "): " + targetTable);
      for (String k : targetKeys.subList(targetKeys.size() * 3 / 4, targetKeys.size())) {
        assertFalse(targetTable.covering(b(k)) instanceof BufferEntry.File, "cold key " + k + " still in a part");
      }
      checkReads(db, model, "after the split");
    }
    try (DbImpl db = (DbImpl) Cairn.open(dir, units)) {
      assertEquals(before, db.engine().versions().current().bufferRuns(level), "the parts survive a reopen");
      assertTrue(onDisk(target));
      checkReads(db, model, "after reopening");
    }
  }

  /**
   * Part compaction: a file only the buffer holds, of which reads warmed a fifth, is cut by the
   * trim into parts and markers and then rewritten as a table of its parts' blocks alone: the
   * old file leaves the disk, the parts name the new, smaller file, its warm blocks are cached at
   * their new addresses, and reads stay right, also after a reopen.
   */
  @Test
  void aBufferFileWhosePartsKeepLittleOfItIsRewrittenAsThoseParts() throws Exception {
    long seed = Seeds.seed();
    TreeMap<String, byte[]> model = new TreeMap<>();
    // One data block per trim unit: every block the reads warm stays as a part, whichever buffer
    // file answered them (which one depends on how the load's compactions interleaved), so the
    // trim always leaves parts that keep little of their files.
    Options units = bufferedWith(TEST_BUFFER.withTrimUnitBytes(1).withPartRewriteFraction(0.5))
        .build();
    String buffers;
    long rewrittenNumber;
    try (DbImpl db = (DbImpl) Cairn.open(dir, units)) {
      load(db, model, new SplittableRandom(seed), 3, 1_000_000);
      Version v = db.engine().versions().current();
      FileMetaData x = null;
      Set<Long> levelFiles = new HashSet<>();
      for (int level = 0; level < v.numLevels(); level++) {
        v.files(level).forEach(f -> levelFiles.add(f.number()));
      }
      for (int level = 1; level < v.numLevels() && x == null; level++) {
        for (BufferRun<FileMetaData> run : v.bufferRuns(level)) {
          for (BufferEntry<FileMetaData> e : run.entries()) {
            if (e instanceof BufferEntry.File<FileMetaData> f && f.whole() && f.carried().isEmpty()
                && !levelFiles.contains(f.meta().number()) && f.meta().totalBytes() > 8 << 10) {
              x = f.meta();
            }
          }
        }
      }
      assertTrue(x != null, "the load leaves a whole file only the buffer holds, seed " + seed + "\n" + renderBuffers(v));
      FileMetaData old = x;
      assertEquals(0, buffer(db).trimOnce(), "the first pass lets every table warm up");
      List<String> keys = new ArrayList<>(model.subMap(new String(old.smallestUserKey(), StandardCharsets.UTF_8), true,
          new String(old.largestUserKey(), StandardCharsets.UTF_8), true).keySet());
      for (String k : keys.subList(0, keys.size() / 5)) {
        assertArrayEquals(model.get(k), db.get(b(k)));
      }
      buffer(db).trimOnce();
      Map<Long, FileMetaData> before = new HashMap<>();
      allBufferFiles(db.engine().versions().current()).forEach(f -> before.put(f.number(), f));
      assertTrue(buffer(db).rewritePartsOnce() > 0, "the file is rewritten, seed " + seed + "\n"
          + renderBuffers(db.engine().versions().current()));
      assertFalse(onDisk(old), "the old file is collected");
      Map<Long, FileMetaData> after = new HashMap<>();
      allBufferFiles(db.engine().versions().current()).forEach(f -> after.put(f.number(), f));
      assertFalse(after.containsKey(old.number()), "no entry names the old file");
      long goneBytes = before.values().stream().filter(f -> !after.containsKey(f.number())).mapToLong(FileMetaData::totalBytes).sum();
      List<FileMetaData> added = after.values().stream().filter(f -> !before.containsKey(f.number())).toList();
      assertFalse(added.isEmpty(), "the parts name new files");
      assertTrue(added.stream().allMatch(this::onDisk));
      long addedBytes = added.stream().mapToLong(FileMetaData::totalBytes).sum();
      assertTrue(addedBytes < goneBytes, "the rewrites are smaller: " + addedBytes + " for " + goneBytes);
      assertTrue(added.stream().anyMatch(f -> db.engine().blockCache().warmBlockCount(f.number()) > 0),
          "warm blocks moved to their new addresses");
      FileMetaData rewritten = added.get(0);
      Stats.Buffer stats = db.stats().buffer();
      assertTrue(stats.rewrittenFiles() > 0 && stats.rewrittenBytes() > 0, stats.toString());
      checkReads(db, model, "after the rewrite, seed " + seed);
      buffers = renderBuffers(db.engine().versions().current());
      rewrittenNumber = rewritten.number();
    }
    try (DbImpl db = (DbImpl) Cairn.open(dir, units)) {
      // The manifest keeps filter markers plain (docs/compaction.md, "Filter markers").
      assertEquals(buffers.replace("filtered[", "removed["), renderBuffers(db.engine().versions().current()),
          "the manifest kept the rewrite");
      assertTrue(allBufferFiles(db.engine().versions().current()).stream().anyMatch(f -> f.number() == rewrittenNumber));
      checkReads(db, model, "after reopening, seed " + seed);
    }
  }

  /** The files every buffer names, carried buffers included. */
  private static Set<FileMetaData> allBufferFiles(Version v) {
    Set<FileMetaData> out = new HashSet<>();
    bufferRuns(v).forEach(r -> out.addAll(r.allFiles()));
    return out;
  }

  /** The file entries of {@code tables}, those of carried buffers included. */
  private static int fileEntries(List<BufferRun<FileMetaData>> tables) {
    int n = 0;
    for (BufferRun<FileMetaData> t : tables) {
      for (BufferEntry<FileMetaData> e : t.entries()) {
        if (e instanceof BufferEntry.File<FileMetaData> f) {
          n += 1 + fileEntries(f.carried());
        }
      }
    }
    return n;
  }
}

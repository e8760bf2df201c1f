package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.Options;
import dev.cairn.ReadOptions;
import dev.cairn.Stats;
import dev.cairn.compaction.block.BlockCompactionConfig;
import dev.cairn.compaction.block.LevelThresholds;
import dev.cairn.config.BlockCompactionExecution;
import dev.cairn.config.CompactionSettings;
import dev.cairn.db.base.TableIterators;
import dev.cairn.fs.fake.FaultInjectingFileSystem;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.ForwardingFileSystem;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.fs.ReadableFile;
import dev.cairn.key.InternalKey;
import dev.cairn.table.FilterCounters;
import dev.cairn.table.cache.TableHandle;
import dev.cairn.table.TableReader;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Block compaction through the engine: scans, dead bytes, failures in the middle of an append. */
class BlockCompactionTest {
  @TempDir Path dir;

  /** Block compaction by {@code policy}, obsolete files deleted at once. */
  static CompactionSettings.Block forcedBlocks(BlockCompactionConfig policy) {
    return CompactionSettings.Block.defaults().withPolicy(policy)
        .withIo(BlockCompactionExecution.defaults().withLazyDeletionBytes(0));
  }

  static Options options(FaultInjectingFileSystem fs) {
    Options.Builder b = Options.builder()
        .compaction(CompactionSettings.leveled(forcedBlocks(BlockCompactionConfig.defaults().withForceBlock(true))))
        .memtableBytes(64 << 10)
        .blockBytes(512)
        .targetFileBytes(64 << 10)
        .baseLevelBytes(1 << 20)
        .l0CompactionTrigger(100)
        .l0SlowdownTrigger(200)
        .l0StopTrigger(300)
        .backgroundThreads(1);
    if (fs != null) {
      b.fileSystem(fs);
    }
    return b.build();
  }

  private static byte[] key(int i) {
    return String.format("key%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static void put(Cairn db, TreeMap<String, byte[]> model, int i, String v) {
    byte[] value = (v + i).getBytes(StandardCharsets.UTF_8);
    db.put(key(i), value);
    model.put(new String(key(i), StandardCharsets.UTF_8), value);
  }

  /** Loads a base of keys into L1+, then overwrites a sparse few: the next compaction appends. */
  private static TreeMap<String, byte[]> loadBaseThenSparseUpdates(Cairn db) {
    TreeMap<String, byte[]> model = new TreeMap<>();
    for (int i = 0; i < 6000; i += 2) {
      put(db, model, i, "base");
    }
    db.compactRange(null, null);
    for (int i = 1; i < 6000; i += 397) {
      put(db, model, i, "new"); // odd keys: inserts between existing ones
    }
    put(db, model, 100, "updated");
    db.flush();
    return model;
  }

  private static void assertContents(Cairn db, TreeMap<String, byte[]> model) {
    try (CairnIterator it = db.iterator(ReadOptions.DEFAULT)) {
      it.seekToFirst();
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        assertTrue(it.isValid(), "scan ended before " + e.getKey());
        assertEquals(e.getKey(), new String(it.key(), StandardCharsets.UTF_8), "scan order");
        assertArrayEquals(e.getValue(), it.value());
        it.next();
      }
      assertTrue(!it.isValid(), "scan has more than the model");
    }
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      assertArrayEquals(e.getValue(), db.get(e.getKey().getBytes(StandardCharsets.UTF_8)), e.getKey());
    }
  }

  @Test
  void rangeScansStayInKeyOrderAfterAppendsAndDeadBytesAreCounted() {
    try (Cairn db = Cairn.open(dir, options(null))) {
      TreeMap<String, byte[]> model = loadBaseThenSparseUpdates(db);
      db.compactRange(null, null);
      Stats stats = db.stats();
      assertTrue(stats.block().appendedTables() > 0, stats.toString());
      long dead = stats.levels().stream().mapToLong(Stats.LevelStats::deadBytes).sum();
      assertTrue(dead > 0, "appends leave the old index, filter and dirty blocks behind: " + stats);
      assertTrue(stats.toString().contains("Dead(MB)"), stats.toString());
      // Appended blocks lie at the end of the files, out of key order: scans follow the index.
      assertContents(db, model);
      db.verifyChecksums();
    }
    try (Cairn db = Cairn.open(dir, options(null))) {
      db.verifyChecksums();
    }
  }

  @ParameterizedTest
  @EnumSource(BlockCompactionConfig.LastLevel.class)
  void everyAppendedAndRewrittenTargetIsCountedUnderTheRuleThatDecidedIt(BlockCompactionConfig.LastLevel rule) {
    Options o = options(null).toBuilder()
        .compaction(CompactionSettings.leveled(forcedBlocks(BlockCompactionConfig.defaults().withForceBlock(true)
            .withLastLevel(rule))))
        .build();
    try (Cairn db = Cairn.open(dir, o)) {
      loadBaseThenSparseUpdates(db);
      db.compactRange(null, null);
      Stats stats = db.stats();
      Stats.Block block = stats.block();
      // The base spans every key the updates hit, so a merge takes the last level's thresholds
      // exactly when it writes into the level that holds the base, under either rule.
      int deepest = stats.levels().stream().filter(l -> l.files() > 0).mapToInt(Stats.LevelStats::level).max()
          .orElseThrow();
      long appended = 0;
      long rewritten = 0;
      for (Stats.Choices c : block.choices()) {
        assertTrue(c.level() >= 1 && c.tables() > 0 && c.dirtyBlocks() <= c.dataBlocks(), c.toString());
        assertEquals(c.level() == deepest, c.lastLevel(), "deepest level " + deepest + ": " + c);
        if (c.appended()) {
          appended += c.tables();
          assertTrue(c.dirtyBlocks() < c.dataBlocks(), "an append leaves clean blocks: " + c);
        } else {
          rewritten += c.tables();
        }
      }
      assertTrue(appended > 0, block.toString());
      assertEquals(block.appendedTables(), appended, block.toString());
      assertEquals(block.rewrittenTables(), rewritten, block.toString());
    }
  }

  /** Compaction bytes written by sparse updates compacted into a loaded tree, per style. */
  private long sparseUpdateCompactionBytes(Options o, Path where) {
    Random rnd = new Random(17);
    try (Cairn db = Cairn.open(where, o)) {
      for (int i = 0; i < 20_000; i += 2) {
        db.put(key(i), new byte[40]);
      }
      db.compactRange(null, null);
      long before = db.stats().compaction().bytesWritten();
      for (int round = 0; round < 20; round++) {
        for (int k = 0; k < 30; k++) {
          db.put(key(rnd.nextInt(20_000)), new byte[] {(byte) round});
        }
        db.compactRange(null, null);
      }
      if (Boolean.getBoolean("cairn.debug")) {
        System.out.println(db.stats());
      }
      return db.stats().compaction().bytesWritten() - before;
    }
  }

  @Test
  void blockCompactionWritesLessThanTableCompactionForSparseUpdates() {
    Options block = options(null);
    Options table = block.toBuilder().compaction(CompactionSettings.defaults()).build();
    long blockBytes = sparseUpdateCompactionBytes(block, dir.resolve("block"));
    long tableBytes = sparseUpdateCompactionBytes(table, dir.resolve("table"));
    System.out.printf("sparse updates: compaction bytes written, table %d, block %d (%.2fx)%n",
        tableBytes, blockBytes, (double) tableBytes / blockBytes);
    assertTrue(blockBytes < tableBytes, "block " + blockBytes + " vs table " + tableBytes);
  }

  @Test
  void cleanBlocksStayCachedAcrossAnAppend() {
    try (Cairn db = Cairn.open(dir, options(null))) {
      TreeMap<String, byte[]> model = new TreeMap<>();
      for (int i = 0; i < 6000; i += 2) {
        put(db, model, i, "base");
      }
      db.compactRange(null, null);
      model.keySet().forEach(k -> db.get(k.getBytes(StandardCharsets.UTF_8))); // warm the cache
      for (int i = 1; i < 6000; i += 997) {
        put(db, model, i, "new");
      }
      db.compactRange(null, null);
      assertTrue(db.stats().block().appendedTables() > 0);
      var before = db.stats().cache();
      model.keySet().forEach(k -> db.get(k.getBytes(StandardCharsets.UTF_8)));
      var after = db.stats().cache();
      long hits = after.hits() - before.hits();
      long misses = after.misses() - before.misses();
      // Only the few merged blocks are new; every other block is still cached at its offset.
      assertTrue(hits > 10 * misses, hits + " hits, " + misses + " misses");
    }
  }

  @Test
  void aFailureInTheMiddleOfAnAppendLeavesNoEditAndTheNextAppendCutsTheTornTail() throws IOException {
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem();
    TreeMap<String, byte[]> model;
    Set<String> baseTables;
    Cairn db = Cairn.open(dir, options(fs));
    try {
      model = loadBaseThenSparseUpdates(db);
      // The tables that exist before the L0 flush of the updates are the ones an append targets
      // (the L0 file itself is only read).
      try (Stream<Path> files = Files.list(dir)) {
        baseTables = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".sst"))
            .collect(Collectors.toSet());
      }
      fs.tearNextAppend(baseTables::contains);
      assertThrows(RuntimeException.class, () -> db.compactRange(null, null));
    } finally {
      try {
        db.close();
      } catch (RuntimeException expected) {
        // The background error is reported again at close.
      }
    }
    assertTrue(fs.faultsInjected() > 0, "the append must have met the fault");
    fs.heal();
    try (Cairn reopened = Cairn.open(dir, options(fs))) {
      assertContents(reopened, model); // the torn tail beyond the manifest's length is ignored
      reopened.verifyChecksums();
      reopened.compactRange(null, null);
      assertTrue(reopened.stats().block().appendedTables() > 0);
      assertContents(reopened, model);
      reopened.verifyChecksums();
    }
  }

  @Test
  void appendedFiltersStayWithinTheFalsePositiveTarget() {
    // Tables may grow to 16 target sizes, so that they take many appends before a rewrite.
    BlockCompactionConfig d = BlockCompactionConfig.defaults();
    LevelThresholds roomy = new LevelThresholds(0.5, 0.1, 16, d.last().filterReserve());
    Options o = options(null).toBuilder()
        .compaction(CompactionSettings.leveled(forcedBlocks(new BlockCompactionConfig(roomy, roomy, true))))
        .build();
    Random rnd = new Random(42);
    try (Cairn db = Cairn.open(dir, o)) {
      for (int i = 0; i < 20_000; i += 2) {
        db.put(key(i), new byte[] {1});
      }
      db.compactRange(null, null);
      // Many rounds of sparse appends, each compacted at once.
      for (int round = 0; round < 30; round++) {
        for (int k = 0; k < 40; k++) {
          db.put(key(rnd.nextInt(10_000) * 2), new byte[] {(byte) round});
        }
        db.compactRange(null, null);
      }
      Stats stats = db.stats();
      if (Boolean.getBoolean("cairn.debug")) {
        System.out.println(stats);
      }
      assertTrue(stats.block().appendedTables() > 10, stats.toString());
      // Probe every live table of L1+ with the absent (odd) keys of its range: every positive
      // filter answer is a false positive.
      long probes = 0;
      long positives = 0;
      long maxExtent = 0;
      DbImpl impl = (DbImpl) db;
      Version v = impl.engine().versions().refCurrent(); // pinned: a compaction may replace it meanwhile
      try {
        for (int level = 1; level < v.numLevels(); level++) {
          for (FileMetaData f : v.files(level)) {
            try (TableHandle h = TableIterators.acquire(impl.engine().tableCache(), f)) {
              TableReader r = h.reader();
              FilterCounters before = r.filterCounters();
              for (int i = 1; i < 20_000; i += 2) {
                r.get(key(i), InternalKey.MAX_SEQUENCE, false);
              }
              FilterCounters after = r.filterCounters();
              probes += after.probes() - before.probes();
              positives += after.falsePositives() - before.falsePositives();
              maxExtent = Math.max(maxExtent, r.properties().extent());
            }
          }
        }
      } finally {
        v.unref();
      }
      double fpRate = (double) positives / probes;
      System.out.printf("block compaction: %d appended tables, %d filter rebuilds, max extent %d,"
              + " measured filter FP rate %.4f (%d of %d probes of absent keys)%n",
          stats.block().appendedTables(), stats.block().filterRebuilds(), maxExtent, fpRate,
          positives, probes);
      assertTrue(maxExtent >= 5, "tables must have taken many appends: " + maxExtent);
      // The estimate bounds the expected rate; allow sampling noise on top.
      assertTrue(fpRate <= BlockCompactionExecution.defaults().maxFilterFalsePositiveRate() * 1.5,
          "false-positive rate " + fpRate + " above the target");
    }
  }

  /** Fails opening a file for reading once a file of {@code names} was opened before it. */
  private static final class FailSecondOpen extends ForwardingFileSystem {
    private final Set<String> names;
    private final AtomicInteger opened = new AtomicInteger();

    FailSecondOpen(Set<String> names) {
      super(new LocalFileSystem());
      this.names = names;
    }

    @Override
    public ReadableFile openReadable(Path path) throws IOException {
      if (names.contains(path.getFileName().toString()) && opened.getAndIncrement() >= 1) {
        throw new IOException("injected: cannot open " + path);
      }
      return super.openReadable(path);
    }
  }

  @Test
  void aFailedOpenOfAnIncomingTableReleasesTheTablesOpenedBeforeIt() {
    Set<String> l0;
    try (DbImpl db = (DbImpl) Cairn.open(dir, options(null))) {
      loadBaseThenSparseUpdates(db);
      for (int i = 3; i < 6000; i += 401) {
        put(db, new TreeMap<>(), i, "newer");
      }
      db.flush(); // a second L0 file: the compaction reads two incoming tables
      l0 = db.engine().versions().current().files(0).stream()
          .map(f -> FileNames.table(f.number())).collect(Collectors.toSet());
      assertEquals(2, l0.size());
    }
    FailSecondOpen fs = new FailSecondOpen(l0);
    DbImpl db = (DbImpl) Cairn.open(dir, options(null).toBuilder().fileSystem(fs).build());
    try {
      assertThrows(RuntimeException.class, () -> db.compactRange(null, null));
      assertEquals(2, fs.opened.get(), "the second incoming table failed to open");
    } finally {
      db.close();
    }
    assertEquals(0, db.engine().tableCache().openTables(), "a table the failed compaction opened is still open");
  }
}

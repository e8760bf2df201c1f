package dev.cairn.db;

import dev.cairn.compaction.buffer.BufferConfig;
import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.compaction.buffer.BufferedMerge;
import dev.cairn.compaction.buffer.ColdRunBudget;
import dev.cairn.compaction.buffer.FreezeRound;
import dev.cairn.compaction.buffer.TrimSchedule;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.key.UserKeys;
import dev.cairn.table.TableHandle;
import dev.cairn.table.TableReader;
import dev.cairn.version.BufferEntry;
import dev.cairn.version.KeyRanges;
import dev.cairn.version.BufferTable;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import dev.cairn.version.VersionEdit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * The LSbM compaction buffer of a database with {@link Options.CompactionStyle#BUFFER}
 * (docs/compaction.md, "Compaction buffer"): the buffered merge, which adds the buffer's part to
 * every compaction's edit before it installs (Algorithm 1), the freeze on repeated data, and the
 * periodic trim of cold files (Algorithm 2). The buffer's tables live in the {@link Version}; this
 * class keeps only soft state (freeze accounting, counters), rebuilt empty on open.
 *
 * <p>Every database has one: with another compaction style it neither appends nor trims, but
 * still adds the removed markers that keep a buffer left by an earlier BUFFER open correct,
 * so that buffer drains as the tree compacts (shadowed files are dropped).
 */
final class BufferRuntime {
  private static final Logger LOG = Logger.getLogger(BufferRuntime.class.getName());

  private final Engine engine;
  private final BufferConfig config;
  /** BUFFER style: merges append and the trim runs. Otherwise only markers keep a leftover buffer right. */
  private final boolean active;
  private final ScheduledExecutorService trimmer;

  /** Per level, its freeze round (LSbM section 4.1). Guarded by the engine mutex. */
  private final FreezeRound[] rounds = new FreezeRound[Options.MAX_LEVELS];
  /** Per level, what the next trim pass may judge. Trim-confined. */
  private final TrimSchedule[] schedules = new TrimSchedule[Options.MAX_LEVELS];

  private final AtomicLong appendedFiles = new AtomicLong();
  private final AtomicLong trimmedFiles = new AtomicLong();
  private final AtomicLong shadowedFiles = new AtomicLong();
  private final AtomicLong trimPasses = new AtomicLong();
  private final AtomicLong freezes = new AtomicLong();
  private final BufferReads reads = new BufferReads();

  BufferRuntime(Engine engine, BufferConfig config, boolean active) {
    this.engine = engine;
    this.config = config;
    this.active = active;
    Arrays.fill(rounds, FreezeRound.NEW);
    Arrays.fill(schedules, TrimSchedule.FIRST_PASS);
    this.trimmer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "cairn-buffer-trim-" + engine.dir().getFileName());
      t.setDaemon(true);
      return t;
    });
  }

  void start() {
    if (!active) {
      return;
    }
    long interval = config.trimIntervalMillis();
    trimmer.scheduleWithFixedDelay(this::trimQuietly, interval, interval, TimeUnit.MILLISECONDS);
  }

  /** Stops the trim task and waits for a pass in progress, so none runs after close. */
  void stop() {
    trimmer.shutdown();
    try {
      if (!trimmer.awaitTermination(30, TimeUnit.SECONDS)) {
        trimmer.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Requires: mutex held, {@code edit} about to be installed on the current version. Adds the
   * buffer's part of a compaction: appends the merged input files to the output level's buffer
   * (unless frozen), and removed markers wherever a level changed otherwise.
   */
  void beforeInstall(CompactionPlan plan, VersionEdit edit) {
    Version v = engine.versions().current();
    int in = plan.inputLevel();
    int out = plan.outputLevel();
    if (plan.newCompactionPointer() != null && in >= 1
        && FreezeRound.pointerWrapped(engine.versions().compactPointer(in), plan.newCompactionPointer())) {
      rounds[in] = FreezeRound.NEW; // level `in` begins a new merge-down round
    }
    if (BufferedMerge.mergesDown(plan)) {
      FreezeRound before = rounds[out];
      rounds[out] = before.afterMerge(bytes(BufferDraft.deletedFiles(v, edit, in)), levelBytesAfter(v, out, edit),
          config.freezeRepeatedFraction());
      if (rounds[out].frozen() && !before.frozen()) {
        freezes.incrementAndGet();
      }
    }
    boolean append = BufferedMerge.appends(plan, active, rounds[out]);
    BufferDraft draft = new BufferDraft(v, edit, engine.versions()::newFileNumber);
    appendedFiles.addAndGet(draft.applyCompaction(in, out, append, config.carryBuffers()));
    shadowedFiles.addAndGet(draft.collectGarbage());
    draft.writeTo(edit);
  }

  private static long bytes(List<FileMetaData> files) {
    return files.stream().mapToLong(FileMetaData::totalBytes).sum();
  }

  /** The size {@code level} has once {@code edit} is installed on {@code v}. */
  private static long levelBytesAfter(Version v, int level, VersionEdit edit) {
    long bytes = v.levelBytes(level) - bytes(BufferDraft.deletedFiles(v, edit, level));
    for (VersionEdit.NewFile n : edit.newFiles()) {
      if (n.level() == level) {
        bytes += n.file().totalBytes();
      }
    }
    return bytes;
  }

  private void trimQuietly() {
    try {
      trimOnce();
    } catch (Throwable t) {
      LOG.warning("compaction-buffer trim failed: " + t);
    }
  }

  /**
   * Algorithm 2, at the granularity of trim units ({@link TrimUnits}): turns the block runs of
   * buffer files whose fraction of cached blocks is below the threshold into removed markers,
   * keeping the hot runs as parts of the same file, in every buffer table but the "still
   * warming" ones: each level's newest, and every table created since the previous pass (LSbM's
   * B^0: a file appended since then gets one interval for reads to find it); a file not in the
   * level's buffer at the previous pass is warming too, whatever its table. Returns the runs
   * removed. One pass at a time.
   */
  synchronized int trimOnce() {
    Version pinned = engine.versions().refCurrent();
    List<PlannedSplit> planned = new ArrayList<>();
    try {
      // Outside the mutex: opening table readers to read their indexes may read the disk.
      Map<Long, BlockRuns> runsByFile = new HashMap<>();
      boolean keepColdRuns = ColdRunBudget.keepsColdRuns(config.coldRunBudget(), ExtraSpace.of(pinned).bytes(),
          engine.options().blockCacheBytes());
      for (int level = 1; level < pinned.numLevels(); level++) {
        List<BufferTable> tables = pinned.bufferTables(level);
        TrimSchedule schedule = schedules[level];
        Set<Long> judged = schedule.judgeableRuns(runIds(tables));
        // Cached data of the tables older than the one judged; left empty over the space budget.
        KeyRanges below = new KeyRanges();
        for (int i = tables.size() - 1; i >= 0; i--) {
          BufferTable t = tables.get(i);
          if (judged.contains(t.id())) {
            for (BufferEntry e : t.entries()) {
              if (e instanceof BufferEntry.File f && schedule.judgesFile(f.meta().number())) {
                Judged j = judge(f, runsByFile, below, keepColdRuns);
                if (!j.pieces.equals(List.of(f))) {
                  planned.add(new PlannedSplit(level, t.id(), f, j.pieces, j.removedRuns));
                }
              }
            }
          }
          if (keepColdRuns && i > 0) { // the newest table lies under no table
            addCachedRanges(t.entries(), runsByFile, below);
          }
        }
      }
    } finally {
      pinned.unref();
    }
    engine.mutex().lock();
    try {
      if (engine.status().isClosing() || engine.status().hasBackgroundError()) {
        return 0; // the engine refuses changes now; reopening recovers the buffer as it was
      }
      trimPasses.incrementAndGet();
      Version v = engine.versions().current();
      BufferDraft draft = new BufferDraft(v, engine.versions()::newFileNumber);
      int removed = 0;
      int applied = 0;
      for (PlannedSplit p : planned) {
        if (draft.split(p.level, p.tableId, p.entry, p.pieces)) {
          removed += p.removedRuns;
          applied++;
        }
      }
      for (int level = 1; level < v.numLevels(); level++) {
        List<BufferTable> tables = v.bufferTables(level);
        Set<Long> present = new HashSet<>();
        tables.forEach(t -> t.files().forEach(f -> present.add(f.number())));
        schedules[level] = schedules[level].afterPass(runIds(tables), present);
      }
      if (applied == 0) {
        return 0; // nothing judged, or every judged entry changed since: no edit to write
      }
      shadowedFiles.addAndGet(draft.collectGarbage());
      VersionEdit edit = new VersionEdit();
      draft.writeTo(edit);
      try {
        engine.versions().logAndApply(edit);
      } catch (Throwable t) {
        engine.status().latch(t);
        throw t instanceof RuntimeException r ? r : new RuntimeException(t);
      }
      trimmedFiles.addAndGet(removed);
      engine.background().collectObsoleteFiles(false);
      return removed;
    } finally {
      engine.mutex().unlock();
    }
  }

  /** A split the trim judged outside the mutex, applied under it if the entry is still there. */
  private record PlannedSplit(int level, long tableId, BufferEntry.File entry, List<BufferEntry> pieces,
      int removedRuns) {}

  /** What the trim makes of one buffer entry: the pieces that replace it, and the cold runs it removed. */
  private record Judged(List<BufferEntry> pieces, int removedRuns) {}

  /**
   * Judges {@code f} by its blocks' presence in the cache ({@link TrimUnits#split}). A file that
   * carries a buffer is judged through it: the carried files are judged (recursively) and pruned,
   * and while any is left the file stays whole, however cold its own blocks (the carried files
   * serve its reads; the file is where their markers send a walk). Once none is left, the file is
   * judged by its own blocks like any other.
   */
  private Judged judge(BufferEntry.File f, Map<Long, BlockRuns> runsByFile, KeyRanges below, boolean keepColdRuns) {
    int removedRuns = 0;
    if (!f.carried().isEmpty()) {
      BufferTable[] tables = new BufferTable[f.carried().size()];
      KeyRanges carriedBelow = new KeyRanges(); // a marker in a carried table sends walks to f, not further
      for (int i = tables.length - 1; i >= 0; i--) {
        BufferTable t = f.carried().get(i);
        List<BufferEntry> entries = new ArrayList<>();
        for (BufferEntry e : t.entries()) {
          if (e instanceof BufferEntry.File c) {
            Judged j = judge(c, runsByFile, carriedBelow, keepColdRuns);
            entries.addAll(j.pieces);
            removedRuns += j.removedRuns;
          } else {
            entries.add(e);
          }
        }
        tables[i] = new BufferTable(t.id(), entries);
        if (keepColdRuns) {
          addCachedRanges(t.entries(), runsByFile, carriedBelow);
        }
      }
      List<BufferTable> kept = BufferTable.prune(List.of(tables));
      if (!kept.isEmpty()) {
        return new Judged(List.of(f.withCarried(kept)), removedRuns);
      }
      f = f.withCarried(List.of());
    }
    BufferEntry.File plain = f;
    BlockRuns runs = runsByFile.computeIfAbsent(plain.meta().number(), n -> blockRuns(plain.meta()));
    List<BufferEntry> pieces = runs == null ? List.of(plain) : TrimUnits.split(plain, runs.upperUserKeys,
        runs.blockBytes, runs.cached, config.trimUnitBytes(), config.trimCachedFraction(), below::overlaps);
    removedRuns += (int) pieces.stream().filter(e -> e instanceof BufferEntry.Removed).count();
    return new Judged(pieces, removedRuns);
  }

  /**
   * Adds to {@code out} the key ranges of the cached blocks of {@code entries}' files (within each
   * entry's range), those of their carried buffers included: where a newer table's marker would
   * stop walks that cached data serves.
   */
  private void addCachedRanges(List<BufferEntry> entries, Map<Long, BlockRuns> runsByFile, KeyRanges out) {
    for (BufferEntry e : entries) {
      if (!(e instanceof BufferEntry.File f)) {
        continue;
      }
      BlockRuns runs = runsByFile.computeIfAbsent(f.meta().number(), n -> blockRuns(f.meta()));
      if (runs != null) {
        for (int b = 0; b < runs.cached.length; b++) {
          if (runs.cached[b]) {
            // Block b holds user keys in [upper(b-1), upper(b)] (a key may straddle the boundary).
            byte[] lo = b == 0 ? f.smallestUserKey() : max(f.smallestUserKey(), runs.upperUserKeys[b - 1]);
            byte[] hi = min(f.largestUserKey(), runs.upperUserKeys[b]);
            out.add(lo, hi);
          }
        }
      }
      f.carried().forEach(t -> addCachedRanges(t.entries(), runsByFile, out));
    }
  }

  private static byte[] min(byte[] a, byte[] b) {
    return UserKeys.compare(a, b) <= 0 ? a : b;
  }

  private static byte[] max(byte[] a, byte[] b) {
    return UserKeys.compare(a, b) >= 0 ? a : b;
  }

  /** One file's data blocks in key order, as the trim judges them. */
  private record BlockRuns(byte[][] upperUserKeys, long[] blockBytes, boolean[] cached) {}

  /**
   * The file's blocks with the cache's view of each (LSbM's per-file counter, per block), or
   * null when the file cannot be opened now: then it is kept, and the next pass tries again.
   */
  private BlockRuns blockRuns(FileMetaData f) {
    try (TableHandle h = TableIterators.acquire(engine.tableCache(), f)) {
      TableReader r = h.reader();
      int n = r.dataBlockCount();
      byte[][] upper = new byte[n][];
      long[] bytes = new long[n];
      boolean[] cached = new boolean[n];
      for (int i = 0; i < n; i++) {
        upper[i] = r.dataBlockUpperUserKey(i);
        bytes[i] = r.dataBlockBytes(i);
        cached[i] = engine.blockCache().isCached(f.number(), r.dataBlockOffset(i));
      }
      return new BlockRuns(upper, bytes, cached);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static List<Long> runIds(List<BufferTable> tables) {
    return tables.stream().map(BufferTable::id).toList();
  }

  /**
   * The files only {@code v}'s buffers still hold (the buffer's extra disk space), each counted
   * once, under the first level whose buffer holds it; carried files included.
   */
  private record ExtraSpace(List<Long> bytesByLevel, int files) {
    static ExtraSpace of(Version v) {
      Set<Long> levelFiles = new HashSet<>();
      for (int level = 0; level < v.numLevels(); level++) {
        v.files(level).forEach(f -> levelFiles.add(f.number()));
      }
      Set<Long> counted = new HashSet<>();
      List<Long> bytesByLevel = new ArrayList<>();
      for (int level = 0; level < v.numLevels(); level++) {
        long levelBytes = 0;
        for (BufferTable t : v.bufferTables(level)) {
          for (FileMetaData f : t.allFiles()) {
            if (!levelFiles.contains(f.number()) && counted.add(f.number())) {
              levelBytes += f.totalBytes();
            }
          }
        }
        bytesByLevel.add(levelBytes);
      }
      return new ExtraSpace(List.copyOf(bytesByLevel), counted.size());
    }

    long bytes() {
      return bytesByLevel.stream().mapToLong(Long::longValue).sum();
    }
  }

  /** Requires: mutex held. The buffer's figures for {@link Stats}. */
  Stats.Buffer stats(Version v) {
    if (!active && !v.hasBuffer()) {
      return Stats.Buffer.OFF;
    }
    ExtraSpace extra = ExtraSpace.of(v);
    int tables = 0;
    int markers = 0;
    List<Integer> frozenLevels = new ArrayList<>();
    for (int level = 0; level < v.numLevels(); level++) {
      for (BufferTable t : v.bufferTables(level)) {
        tables++;
        markers += t.removedMarkers();
      }
      if (rounds[level].frozen()) {
        frozenLevels.add(level);
      }
    }
    return new Stats.Buffer(true, extra.bytes(), extra.files(), tables, markers, extra.bytesByLevel(),
        appendedFiles.get(), trimmedFiles.get(), shadowedFiles.get(), trimPasses.get(), freezes.get(),
        List.copyOf(frozenLevels), reads.servedTotal(), reads.byLevel(v.numLevels()));
  }

  /** How the point reads through each level's buffer ended (counted by {@link BufferLookup}). */
  BufferReads reads() {
    return reads;
  }

  /** Requires: mutex held. Whether {@code level}'s buffer is frozen now (for tests). */
  boolean isFrozen(int level) {
    return rounds[level].frozen();
  }
}

package dev.cairn.db.buffer;

import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.buffer.BufferConfig;
import dev.cairn.compaction.buffer.BufferDraft;
import dev.cairn.compaction.buffer.BufferHeat;
import dev.cairn.compaction.buffer.BufferedMerge;
import dev.cairn.compaction.buffer.ColdRunBudget;
import dev.cairn.compaction.buffer.FreezeRound;
import dev.cairn.compaction.buffer.IdleBuffer;
import dev.cairn.compaction.buffer.TrimPacing;
import dev.cairn.compaction.buffer.TrimPlanner;
import dev.cairn.compaction.buffer.TrimSchedule;
import dev.cairn.db.base.EditInstaller;
import dev.cairn.db.base.Engine;
import dev.cairn.db.base.PeriodicTask;
import dev.cairn.db.base.TableIterators;
import dev.cairn.db.read.BufferScans;
import dev.cairn.db.read.PointReads;
import dev.cairn.model.BufferRun;
import dev.cairn.model.LevelChanges;
import dev.cairn.table.cache.TableHandle;
import dev.cairn.table.TableReader;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import dev.cairn.version.VersionEdit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.stream.IntStream;

/**
 * The LSbM compaction buffer of a database with {@link dev.cairn.config.CompactionSettings.Buffer}
 * (docs/compaction.md, "Compaction buffer"): the buffered merge, which adds the buffer's part to
 * every compaction's edit before it installs (Algorithm 1) and holds the buffer within its space
 * bound there, the freeze on repeated data, and the trim of cold files (Algorithm 2), paced to
 * the base level's churn, which also empties a level's buffer no read uses. The buffer's tables
 * live in the {@link Version}; this class keeps only soft state (freeze rounds, trim schedules,
 * idle watches, the last pass's heat, counters), rebuilt empty on open.
 *
 * <p>{@link BufferStyle} runs one that appends and trims; {@link BufferLeftover} one that neither
 * appends nor trims but adds the removed markers that keep a buffer an earlier BUFFER open left
 * correct, so that buffer drains as the tree compacts (shadowed files are dropped).
 */
public final class BufferRuntime {
  private static final System.Logger LOG = System.getLogger(BufferRuntime.class.getName());

  private final Engine engine;
  private final BufferConfig config;
  /** BUFFER style: merges append and the trim runs. Otherwise only markers keep a leftover buffer right. */
  private final boolean active;
  /** Set by {@link #start}, null while the buffer is inactive. */
  private volatile PeriodicTask trimmer;
  /** What the last trim pass saw of the buffer's files: the space bound evicts the coolest first. */
  private volatile BufferHeat heat = BufferHeat.NONE;
  /** When passes run and the unit they judge, derived from the tree's base level. */
  private final TrimPacing pacing;
  /** The user bytes written and the time at the start of the previous pass. Trim-confined. */
  private volatile long userBytesAtLastPass;
  /**
   * Bytes the installs since the last pass added to the buffer's extra space ({@link
   * TrimPacing#due}), counted only while nothing has been written since that pass.
   */
  private final AtomicLong growthSinceLastPass = new AtomicLong();
  private volatile long lastPassNanos;

  /** Per level, its freeze round (LSbM section 4.1). Guarded by the engine mutex. */
  private final FreezeRound[] rounds = new FreezeRound[Options.MAX_LEVELS];
  /** The idle rule's clock, in milliseconds; tests move it by hand ({@link #useClock}). */
  private volatile LongSupplier clockMillis = () -> TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
  /** Per level, when its buffer last served a read. Trim-confined. */
  private final IdleBuffer[] idle = new IdleBuffer[Options.MAX_LEVELS];
  /** Per level, what the next trim pass may judge. Trim-confined. */
  private final TrimSchedule[] schedules = new TrimSchedule[Options.MAX_LEVELS];

  private final BufferCounters counters = new BufferCounters();
  /** The read path's per-level counters: the walks the buffer's lookups count, the miss's cost. */
  private final PointReads reads;
  /** The level files scans may read from the buffer files a merge made them of (the read path's). */
  private final BufferScans scans;
  private final PartRewriter rewriter;
  /** What a miss costs, and the space bound it gives. Guarded by the engine mutex. */
  private final MissCostMeter missCost;

  /**
   * @param active merges append and the trim runs ({@link BufferStyle}); otherwise only the markers
   *     that keep a buffer an earlier open left correct ({@link BufferLeftover})
   * @param reads the read path's counters ({@link Reads}), which the miss-cost estimate reads
   * @param scans what iterators read from the buffer instead of level files, filled at installs
   */
  BufferRuntime(Engine engine, BufferConfig config, boolean active, PointReads reads, BufferScans scans) {
    this.engine = engine;
    this.reads = reads;
    this.scans = scans;
    this.config = config;
    this.active = active;
    this.pacing = TrimPacing.of(config, engine.options().baseLevelBytes(), engine.options().blockBytes());
    this.rewriter = new PartRewriter(engine, config.partRewriteFraction());
    this.missCost = new MissCostMeter(reads, config);
    Arrays.fill(rounds, FreezeRound.NEW);
    Arrays.fill(schedules, TrimSchedule.FIRST_PASS);
    Arrays.fill(idle, IdleBuffer.watching(0, clockMillis.getAsLong()));
  }

  void start() {
    if (!active) {
      return;
    }
    lastPassNanos = System.nanoTime();
    long poll = pacing.pollMillis();
    trimmer = PeriodicTask.start(engine, "cairn-buffer-trim", poll, this::trimWhenDue);
  }

  /** Runs a pass when the writes since the previous one, or the time, make it due ({@link TrimPacing}). */
  private void trimWhenDue() {
    long written = engine.counters().userBytesWritten().sum() - userBytesAtLastPass;
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastPassNanos);
    if (pacing.due(written, growthSinceLastPass.get(), millis)) {
      trimQuietly();
    }
  }

  /** Stops the trim task and waits for a pass in progress, so none runs after close. */
  void stop() {
    if (trimmer != null) {
      trimmer.stop(30_000);
    }
  }

  /**
   * Requires: mutex held, {@code edit} about to be installed on the current version. Adds the
   * buffer's part of a compaction: appends the merged input files to the output level's buffer
   * (unless frozen), and removed markers wherever a level changed otherwise. A merge whose output
   * differs from its inputs ({@code outputDiffers}: the user's compaction filter removed or changed
   * values) appends nothing and marks its range as a frozen buffer's merge does: appended, its
   * inputs would answer with the values the filter replaced (docs/compaction.md, "The buffer
   * invariant").
   */
  void beforeInstall(CompactionPlan plan, VersionEdit edit, boolean outputDiffers) {
    assert engine.mutex().isHeldByCurrentThread();
    Version v = engine.versions().current();
    LevelChanges<FileMetaData> changes = edit.levelChanges(v);
    int in = plan.inputLevel();
    int out = plan.outputLevel();
    if (plan.newCompactionPointer() != null && in >= 1
        && FreezeRound.pointerWrapped(engine.versions().compactPointer(in), plan.newCompactionPointer())) {
      rounds[in] = FreezeRound.NEW; // level `in` begins a new merge-down round
    }
    if (BufferedMerge.mergesDown(plan)) {
      FreezeRound before = rounds[out];
      rounds[out] = before.afterMerge(bytes(changes.deleted(in)), levelBytesAfter(v, out, changes),
          config.freezeRepeatedFraction());
      if (rounds[out].frozen() && !before.frozen()) {
        counters.freezes.incrementAndGet();
      }
    }
    boolean append = !outputDiffers && BufferedMerge.appends(plan, active, rounds[out]);
    BufferDraft<FileMetaData> draft = new BufferDraft<>(v, changes, engine.versions()::newFileNumber);
    // The arrivals' growth paces the trim only while nothing has been written since the last
    // pass (TrimPacing.due): under writes, skip the two walks over the buffer that measure it.
    boolean paceByGrowth = active && engine.counters().userBytesWritten().sum() == userBytesAtLastPass;
    long extraBefore = paceByGrowth ? draft.extraBytes(v.numLevels()) : 0;
    // A file none of whose blocks a read warmed has nothing to keep at its address: left out
    // where that needs no marker (BufferDraft.applyCompaction, docs/compaction.md "Cold arrivals").
    if (plan.kind() == CompactionKind.LEVEL_MOVE) {
      // A two-phase round's end: the insertion part's files, unchanged, become the deletion part,
      // and its buffer (dLSM's appending part) goes with them.
      draft.moveLevel(in, out);
    } else {
      counters.appendedFiles.addAndGet(draft.applyCompaction(in, out, append, config.carryBuffers(),
          config.keepColdArrivals() ? f -> true : f -> engine.blockCache().hasWarmBlock(f.number())));
    }
    scans.recordInstall(active && config.scansThroughBuffer() ? draft.scanSources() : Map.of(), changes);
    counters.coldArrivalsLeftOut.addAndGet(draft.coldArrivalsLeftOut());
    counters.shadowedFiles.addAndGet(draft.collectGarbage());
    if (active) {
      // The space bound holds at every install, not only at trim passes: a merge that would
      // take the buffer over it evicts the files the last pass found coolest, in the same edit.
      fitSpace(draft, v, levelsBytesAfter(v, changes));
      if (paceByGrowth) {
        growthSinceLastPass.addAndGet(Math.max(0, draft.extraBytes(v.numLevels()) - extraBefore));
      }
    }
    draft.writeTo(edit.bufferSink());
  }

  /**
   * Requires: mutex held. Evicts from {@code draft} until the buffer's extra space is within the
   * bound ({@link MissCostMeter#boundFraction} of {@code levelsBytes}, the estimate sampled
   * first); returns the entries evicted. Files
   * appended since the last pass are judged by what the cache holds warm of them now, measured
   * only when something must go (this runs under the mutex at every install).
   */
  private int fitSpace(BufferDraft<FileMetaData> draft, Version v, long levelsBytes) {
    assert engine.mutex().isHeldByCurrentThread();
    missCost.sample();
    long budget = (long) (missCost.boundFraction() * levelsBytes);
    if (draft.extraBytes(v.numLevels()) <= budget) {
      return 0;
    }
    int evicted = draft.fitSpace(budget, v.numLevels(), heat.withUnseen(draft.files(v.numLevels()), this::warmFraction));
    if (evicted > 0) {
      counters.evictedFiles.addAndGet(evicted);
      counters.shadowedFiles.addAndGet(draft.collectGarbage());
    }
    return evicted;
  }

  /**
   * The fraction of {@code f}'s data blocks warm in the block cache now ({@link
   * dev.cairn.cache.BlockCache#isWarm}), its block count estimated from its size (no table is
   * opened: the caller holds the mutex).
   */
  private double warmFraction(FileMetaData f) {
    long blocks = Math.max(1, f.totalBytes() / engine.options().blockBytes());
    return Math.min(1.0, (double) engine.blockCache().warmBlockCount(f.number()) / blocks);
  }

  private static long bytes(List<FileMetaData> files) {
    return files.stream().mapToLong(FileMetaData::totalBytes).sum();
  }

  /** The size of all levels once {@code changes} are applied to {@code v}. */
  private static long levelsBytesAfter(Version v, LevelChanges<FileMetaData> changes) {
    long bytes = 0;
    for (int level = 0; level < v.numLevels(); level++) {
      bytes += levelBytesAfter(v, level, changes);
    }
    return bytes;
  }

  /** The size {@code level} has once {@code changes} are applied to {@code v}. */
  private static long levelBytesAfter(Version v, int level, LevelChanges<FileMetaData> changes) {
    return v.levelBytes(level) - bytes(changes.deleted(level)) + bytes(changes.added(level));
  }

  private void trimQuietly() {
    try {
      trimOnce();
      rewritePartsOnce();
    } catch (Throwable t) {
      LOG.log(System.Logger.Level.WARNING, "compaction-buffer trim failed: " + t);
    }
  }

  /**
   * Part compaction after a trim pass ({@link PartRewriter}): rewrites the buffer files whose
   * parts keep little of them. Returns the files rewritten. Serialized with the trim passes.
   */
  public synchronized int rewritePartsOnce() throws IOException {
    return rewriter.rewriteOnce(f -> blockLayout(f, false)); // the plan reads separators and sizes only
  }

  /**
   * One trim pass (LSbM Algorithm 2, at the granularity of trim units): plans the splits over a
   * pinned version outside the mutex ({@link TrimPlanner}, which reads each judged file's block
   * layout and the cache's view of it), then applies those whose entries are unchanged, in one
   * edit, under the mutex. Returns the cold runs removed. One pass at a time.
   */
  public synchronized int trimOnce() {
    userBytesAtLastPass = engine.counters().userBytesWritten().sum();
    growthSinceLastPass.set(0);
    lastPassNanos = System.nanoTime();
    Version pinned = engine.versions().refCurrent();
    List<TrimPlanner.Split<FileMetaData>> planned;
    try {
      // Outside the mutex: opening table readers to read their indexes may read the disk.
      boolean keepColdRuns = ColdRunBudget.keepsColdRuns(config.coldRunBudget(), () -> BufferExtraSpace.of(pinned).bytes(),
          engine.options().blockCacheBytes());
      TrimPlanner<FileMetaData> planner = new TrimPlanner<>(pacing.unitBytes(), config.trimCachedFraction(), keepColdRuns,
          f -> blockLayout(f, true));
      planned = planner.plan(pinned, pinned.numLevels(), List.of(schedules));
      heat = planner.heat();
    } finally {
      pinned.unref();
    }
    engine.mutex().lock();
    try {
      int[] removed = {0};
      // Built once the manifest is this pass's: against the version the edit will replace.
      if (!install(engine, () -> applyPlanned(planned, removed))) {
        return 0;
      }
      counters.trimmedFiles.addAndGet(removed[0]);
      engine.background().collectObsoleteFiles(false);
      return removed[0];
    } finally {
      engine.mutex().unlock();
    }
  }

  /**
   * Requires: mutex held, the manifest held ({@link EditInstaller}). The pass's edit against the
   * current version: the planned splits whose entries are unchanged, idle levels dropped, the
   * space bound applied; null when there is nothing to write. Adds the cold runs removed to
   * {@code removed[0]}.
   */
  private VersionEdit applyPlanned(List<TrimPlanner.Split<FileMetaData>> planned, int[] removed) {
    assert engine.mutex().isHeldByCurrentThread();
    if (engine.status().isClosing() || engine.status().hasBackgroundError()) {
      return null; // the engine refuses changes now; reopening recovers the buffer as it was
    }
    counters.trimPasses.incrementAndGet();
    Version v = engine.versions().current();
    BufferDraft<FileMetaData> draft = new BufferDraft<>(v, engine.versions()::newFileNumber);
    int applied = 0;
    for (TrimPlanner.Split<FileMetaData> p : planned) {
      if (draft.split(p.level(), p.runId(), p.entry(), p.pieces())) {
        removed[0] += p.removedRuns();
        applied++;
      }
    }
    // A level whose buffer has answered no read for a whole trimIntervalMillis goes, newest
    // run included: the cache cannot tell (with no reads, earlier blocks stay cached).
    long nowMillis = clockMillis.getAsLong();
    List<Stats.BufferLevelReads> served = reads.byLevel(v.numLevels());
    for (int level = 1; level < v.numLevels(); level++) {
      idle[level] = idle[level].atPass(served.get(level).served(), nowMillis);
      if (!v.bufferRuns(level).isEmpty() && idle[level].idle(nowMillis, config.trimIntervalMillis())) {
        int dropped = draft.clearLevel(level);
        if (dropped > 0) {
          removed[0] += dropped;
          applied++;
        }
      }
    }
    // The bound moves with what a miss costs, and no install may come to apply it (a load
    // that has stopped writing): the pass holds the buffer to it too, once what the splits
    // and drops above left unreachable is collected (it would count as space to free).
    counters.shadowedFiles.addAndGet(draft.collectGarbage());
    if (fitSpace(draft, v, levelsBytesAfter(v, LevelChanges.none())) > 0) {
      applied++;
    }
    for (int level = 1; level < v.numLevels(); level++) {
      List<BufferRun<FileMetaData>> tables = v.bufferRuns(level);
      Set<Long> present = new HashSet<>();
      tables.forEach(t -> t.files().forEach(f -> present.add(f.number())));
      schedules[level] = schedules[level].afterPass(runIds(tables), present);
    }
    // Nothing judged, or every judged entry changed since: no edit to write. Otherwise the
    // draft was collected above, and by fitSpace after its evictions.
    return applied == 0 ? null : editOf(draft);
  }

  /**
   * Requires: mutex held once. Installs the buffer edit {@code builder} makes against the current
   * version (null: nothing to install) through the engine's {@link EditInstaller}, which latches
   * the engine's background error if the manifest write fails; returns whether one was installed.
   */
  static boolean install(Engine engine, EditInstaller.EditBuilder builder) {
    try {
      return engine.installer().install(builder);
    } catch (IOException e) {
      throw new UncheckedIOException("writing the compaction buffer's edit to the manifest", e);
    }
  }

  /** An edit holding {@code draft}'s buffer changes (no level changes). */
  static VersionEdit editOf(BufferDraft<FileMetaData> draft) {
    VersionEdit edit = new VersionEdit();
    draft.writeTo(edit.bufferSink());
    return edit;
  }

  /**
   * The file's blocks with the cache's view of each (LSbM's per-file counter, per block), or
   * null when the file cannot be opened now: then it is kept, and the next pass tries again.
   * Without {@code withWarmth} every block reads as cold and the cache is not asked (the part
   * rewrite's plan needs only the separators and sizes).
   */
  private TrimPlanner.BlockLayout blockLayout(FileMetaData f, boolean withWarmth) {
    try (TableHandle h = TableIterators.acquire(engine.tableCache(), f)) {
      TableReader r = h.reader();
      int n = r.dataBlockCount();
      byte[][] upper = new byte[n][];
      long[] bytes = new long[n];
      boolean[] warm = new boolean[n];
      for (int i = 0; i < n; i++) {
        upper[i] = r.dataBlockUpperUserKey(i);
        bytes[i] = r.dataBlockBytes(i);
        // Warm, not merely cached: W-TinyLFU keeps blocks read often long ago, which LSbM's
        // trim (written for LRU) would call hot for as long as they pin cache and disk.
        warm[i] = withWarmth && engine.blockCache().isWarm(f.number(), r.dataBlockOffset(i));
      }
      return new TrimPlanner.BlockLayout(upper, bytes, warm, r.keyFilter());
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static List<Long> runIds(List<BufferRun<FileMetaData>> tables) {
    return tables.stream().map(BufferRun<FileMetaData>::id).toList();
  }

  /** Requires: mutex held. The buffer's figures for {@link Stats}. */
  Stats.Buffer stats(Version v) {
    assert engine.mutex().isHeldByCurrentThread();
    if (!active && !v.hasBuffer()) {
      return Stats.Buffer.OFF;
    }
    List<Integer> frozenLevels = IntStream.range(0, v.numLevels()).filter(l -> rounds[l].frozen()).boxed().toList();
    return counters.figures(v, frozenLevels, rewriter, reads, scans, missCost);
  }

  /** Tests: the idle rule reads time from {@code clock}, watching every level afresh from now. */
  public synchronized void useClock(LongSupplier clock) {
    clockMillis = clock;
    List<Stats.BufferLevelReads> served = reads.byLevel(idle.length);
    for (int level = 0; level < idle.length; level++) {
      idle[level] = IdleBuffer.watching(served.get(level).served(), clock.getAsLong());
    }
  }

  /** Requires: mutex held. Whether {@code level}'s buffer is frozen now (for tests). */
  boolean isFrozen(int level) {
    assert engine.mutex().isHeldByCurrentThread();
    return rounds[level].frozen();
  }
}

package dev.cairn.db.compact;

import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPicker;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.LevelScore;
import dev.cairn.compaction.RunningCompactions;
import dev.cairn.db.base.Engine;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import dev.cairn.version.VersionEdit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs the scheduler's plans: claims a plan (its files and the key ranges it reads and writes)
 * so that concurrent compactions never conflict, has the compaction style execute it, and
 * installs the result. The decision of what to compact lives in the compaction module; the
 * scheduler ({@link SchedulerRuntime}) says when, the style ({@link StyleRuntime}) how; this
 * class only claims, installs and releases, the same way for every style and scheduler.
 */
public final class Compactions {
  private final Engine engine;
  private final CompactionPicker picker;
  private final int maxConcurrent;
  private final StyleRuntime style;
  private final SchedulerRuntime scheduler;
  private final DeleteOnlyCompactions deleteOnly;

  // Guarded by the engine mutex.
  private final List<CompactionPlan> runningPlans = new ArrayList<>();
  private int manualWaiting;

  /** The parts come from the options through {@link StyleRegistry#compactions}. */
  public Compactions(Engine engine, CompactionPicker picker, StyleRuntime style, SchedulerRuntime scheduler) {
    this.engine = engine;
    this.picker = picker;
    // The picker keeps the files and key ranges of running plans clear (docs/compaction.md), so
    // several compactions may run at once. A thread stays free for flushes (one of the database's
    // own, or the shared flush threads), so that a long compaction never blocks the memtable.
    this.maxConcurrent = engine.compactionThreads();
    this.style = style;
    this.scheduler = scheduler;
    this.deleteOnly = new DeleteOnlyCompactions(engine, this);
  }

  /** Starts the scheduler's and the style's background tasks (after recovery). */
  public void start() {
    scheduler.start();
    style.start();
  }

  /** Stops them, waiting for a tick or trim pass in progress. */
  public void stop() {
    scheduler.stop();
    style.stop();
  }

  public StyleRuntime style() {
    return style;
  }

  public SchedulerRuntime scheduler() {
    return scheduler;
  }

  /** A claimed plan together with the shape it was planned on. */
  public record Claimed(CompactionPlan plan, ShapeAdapter shape) {}

  /** Requires: mutex held. The picker's score per level (above 1: wants compaction). */
  public double[] scores() {
    assert engine.mutex().isHeldByCurrentThread();
    return picker.scores(currentShape().shape()).stream().mapToDouble(LevelScore::score).toArray();
  }

  /**
   * Requires: mutex held. Compactions running, a pending look for tables under range tombstones
   * counted as one (it may start one, and close waits for it).
   */
  public int running() {
    assert engine.mutex().isHeldByCurrentThread();
    return runningPlans.size() + (deleteOnly.lookPending() ? 1 : 0);
  }

  /**
   * Requires: mutex held. Whether to start a look for tables under range tombstones on the pool
   * ({@link #runDeleteOnlyLook()}): the current version may hold some and has not been looked at.
   * Until the look ends, {@link #claimNext()} claims nothing, so that no merge rewrites a table
   * the look would delete for nothing.
   */
  public boolean queueDeleteOnlyLook() {
    return deleteOnly.queueLook();
  }

  /** Requires: mutex held. The look {@link #queueDeleteOnlyLook()} queued could not start. */
  public void deleteOnlyLookRejected() {
    deleteOnly.lookRejected();
  }

  /** The queued look, on a pool thread without the mutex; asks for background work when done. */
  public void runDeleteOnlyLook() {
    deleteOnly.runQueuedLook();
  }

  /**
   * Requires: mutex held. Returns a plan whose files are now claimed, or null when nothing needs
   * compacting, all threads are busy, a manual compaction is waiting for its turn, or a look for
   * tables under range tombstones is pending.
   */
  public Claimed claimNext() {
    assert engine.mutex().isHeldByCurrentThread();
    if (runningPlans.size() >= maxConcurrent || manualWaiting > 0 || deleteOnly.lookPending()) {
      return null;
    }
    ShapeAdapter shape = currentShape();
    Optional<CompactionPlan> plan = scheduler.next(shape.shape(), List.copyOf(runningPlans));
    if (plan.isEmpty()) {
      return null;
    }
    claim(plan.get());
    return new Claimed(plan.get(), shape);
  }

  private void claim(CompactionPlan plan) {
    runningPlans.add(plan);
  }

  /** Requires: mutex held. Claims {@code plan}, which the caller built over {@code shape} and checked against {@link #runningCompactions()}. */
  Claimed claimPlan(CompactionPlan plan, ShapeAdapter shape) {
    assert engine.mutex().isHeldByCurrentThread();
    claim(plan);
    return new Claimed(plan, shape);
  }

  /** Requires: mutex held. What the running compactions hold. */
  RunningCompactions runningCompactions() {
    assert engine.mutex().isHeldByCurrentThread();
    return RunningCompactions.of(runningPlans);
  }

  ShapeAdapter currentShape() {
    return ShapeAdapter.of(engine.versions().current(), engine.versions()::compactPointer, engine.blockCache(),
        engine.options().blockBytes());
  }

  /** Guarded by the mutex: compactions discarded for a snapshot since the last install. */
  private int discardsInARow;

  /** Runs a claimed plan (on a background thread or the caller's) and installs its result. */
  public void runClaimed(Claimed claimed) {
    long start = System.nanoTime();
    CompactionExecution execution = null;
    VersionEdit edit = null;
    Throwable failure = null;
    try {
      execution = claimed.plan().kind() == CompactionKind.DELETE_ONLY
          ? DeleteOnlyCompactions.execution(claimed.plan())
          : style.execution(claimed, scheduler.pacer());
      edit = execution.run();
    } catch (Throwable t) {
      failure = t;
    }
    engine.mutex().lock();
    try {
      if (failure == null) {
        if (!installUnlessSeenBySnapshot(claimed, execution, edit)) {
          return; // the finally below releases the claim and the outputs
        }
        execution.afterInstall();
        scheduler.installed(claimed.plan(), execution.outputNumbers());
        engine.counters().compactions().increment();
        if (claimed.plan().isTrivialMove()) {
          engine.counters().trivialMoves().increment();
        } else if (claimed.plan().kind() == CompactionKind.LEVEL_MOVE) {
          engine.counters().levelMoves().increment();
        } else if (claimed.plan().kind() == CompactionKind.DELETE_ONLY) {
          engine.counters().deletedWithoutRewrite(claimed.plan().inputs().size(),
              claimed.plan().inputs().stream().mapToLong(f -> f.sizeBytes()).sum());
        }
        long nanos = System.nanoTime() - start;
        engine.counters().compactionNanos().add(nanos);
        engine.events().compacted(claimed.plan(), edit, nanos);
      } else if (!engine.status().isClosing()) {
        engine.status().latch(failure);
      }
    } catch (Throwable t) {
      engine.status().latch(t);
    } finally {
      // Release the claim whatever happened, and the mutex last: a claim left behind would make
      // close() wait forever, and a mutex left held would stop the whole engine.
      try {
        if (execution != null) {
          engine.pendingOutputs().release(execution.outputNumbers());
        }
        runningPlans.remove(claimed.plan());
        engine.background().collectObsoleteFiles(false);
        engine.background().maybeScheduleBackgroundWork();
      } catch (Throwable t) {
        engine.status().latch(t);
      } finally {
        engine.backgroundChanged().signalAll();
        engine.mutex().unlock();
      }
    }
  }

  /**
   * Requires: mutex held. Installs {@code edit}, with the style's part, unless a snapshot taken
   * while {@code execution} ran can see a value its compaction filter changed: then it installs
   * nothing and returns false (the outputs become obsolete and the plan is picked again, knowing
   * the snapshot; after two such discards in a row, without the user's filter until an install,
   * {@link dev.cairn.db.base.Engine#pauseUserFilter}). While an edit whose filter changed values
   * is written, new snapshots wait ({@link dev.cairn.db.base.SnapshotList#hold}): the installer
   * writes the manifest with the mutex released.
   */
  private boolean installUnlessSeenBySnapshot(Claimed claimed, CompactionExecution execution, VersionEdit edit)
      throws IOException {
    boolean outputDiffers = execution.smallestFilteredSequence() != Long.MAX_VALUE;
    boolean[] held = {false};
    try {
      boolean installed = engine.installer().install(() -> {
        if (seenBySnapshotTakenMeanwhile(execution)) {
          engine.counters().filteredCompactionDiscarded();
          engine.pauseUserFilter(++discardsInARow >= 2);
          return null;
        }
        if (outputDiffers) {
          engine.snapshots().hold();
          held[0] = true;
        }
        // Against the version the edit replaces (the installer holds the manifest from here):
        // the style's part (the buffer's) goes into the same edit, atomic with the compaction. A
        // level's tables rewritten in place differ from their inputs too (what the tombstones
        // covered is gone), and their old selves belong in no buffer.
        style.beforeInstall(claimed.plan(), edit, outputDiffers || DeepestRewrite.rewritesInPlace(claimed.plan()));
        return edit;
      });
      if (installed && discardsInARow > 0) {
        discardsInARow = 0;
        engine.pauseUserFilter(false);
      }
      return installed;
    } finally {
      if (held[0]) {
        engine.snapshots().release();
      }
    }
  }

  /**
   * Requires: mutex held. Whether a snapshot open now, taken while {@code execution} ran, can see
   * a value its output changed with the user's compaction filter: installing it would change
   * that snapshot's view. (Snapshots open when it began were known to it and saw nothing it
   * changed; a snapshot taken later, at or above the smallest changed value's sequence, may.)
   */
  private boolean seenBySnapshotTakenMeanwhile(CompactionExecution execution) {
    long smallest = execution.smallestFilteredSequence();
    return smallest != Long.MAX_VALUE && engine.snapshots().newest(-1) >= smallest;
  }

  /**
   * Deletes the tables wholly under newer range tombstones ({@link DeleteOnlyCompactions}); then
   * compacts every file overlapping {@code [from, to]} down to the deepest level that holds such
   * a file (at least L1), one bounded step at a time, on the caller's thread; then rewrites in
   * place the deepest level's files in the range that hold range tombstones ({@link
   * DeepestRewrite}), so that what the tombstones cover goes.
   */
  public void compactRangeManually(byte[] from, byte[] to) {
    deleteOnly.look();
    int deepest = deepestLevelOverlapping(from, to);
    for (int level = 0; level < Math.max(1, deepest); level++) {
      while (true) {
        Claimed claimed = claimManual(level, from, to);
        if (claimed == null) {
          break;
        }
        runChecked(claimed);
      }
    }
    Claimed rewrite = DeepestRewrite.claim(this, engine, Math.max(1, deepest), from, to);
    if (rewrite != null) {
      runChecked(rewrite);
    }
  }

  /** Runs a claimed manual step and throws if it left the database unusable. */
  private void runChecked(Claimed claimed) {
    runClaimed(claimed);
    engine.mutex().lock();
    try {
      engine.status().throwIfUnusable();
    } finally {
      engine.mutex().unlock();
    }
  }

  /**
   * Requires: mutex held. Claims {@code plan}, built over {@link #currentShape()}, once no
   * compaction is running (a manual step's simple wait; it returns with the mutex held).
   */
  Claimed claimWhenIdle(java.util.function.Function<ShapeAdapter, CompactionPlan> plan) {
    manualWaiting++; // no new background plan starts meanwhile, as for claimManual
    try {
      while (!runningPlans.isEmpty()) {
        engine.status().throwIfUnusable();
        engine.backgroundChanged().awaitUninterruptibly();
      }
    } finally {
      manualWaiting--;
    }
    ShapeAdapter shape = currentShape();
    CompactionPlan p = plan.apply(shape);
    if (p == null) {
      return null;
    }
    claim(p);
    return new Claimed(p, shape);
  }

  private int deepestLevelOverlapping(byte[] from, byte[] to) {
    engine.mutex().lock();
    try {
      Version v = engine.versions().current();
      int deepest = 0;
      for (int level = 0; level < v.numLevels(); level++) {
        if (!v.overlappingFiles(level, from, to).isEmpty()) {
          deepest = level;
        }
      }
      return deepest;
    } finally {
      engine.mutex().unlock();
    }
  }

  /** Waits until the range's files at {@code level} are free, then claims a manual step. */
  private Claimed claimManual(int level, byte[] from, byte[] to) {
    engine.mutex().lock();
    manualWaiting++;
    try {
      while (true) {
        engine.status().throwIfUnusable();
        List<FileMetaData> overlapping = engine.versions().current().overlappingFiles(level, from, to);
        if (overlapping.isEmpty()) {
          return null;
        }
        if (runningPlans.size() < maxConcurrent || runningPlans.isEmpty()) {
          ShapeAdapter shape = currentShape();
          Optional<CompactionPlan> plan = picker.planManual(shape.shape(), level, from, to,
              RunningCompactions.of(runningPlans));
          if (plan.isPresent()) {
            claim(plan.get());
            return new Claimed(plan.get(), shape);
          }
        }
        engine.backgroundChanged().awaitUninterruptibly();
      }
    } finally {
      manualWaiting--;
      engine.mutex().unlock();
    }
  }
}

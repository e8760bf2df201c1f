package dev.cairn.db.compact;

import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.OutputLimits;
import dev.cairn.compaction.RunningCompactions;
import dev.cairn.db.base.Engine;
import dev.cairn.db.base.TableIterators;
import dev.cairn.key.RangeTombstones;
import dev.cairn.model.FileDescriptor;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import dev.cairn.version.VersionEdit;
import java.util.ArrayList;
import java.util.List;

/**
 * Delete-only compactions: the tables {@link CoveredTables} finds wholly under a newer range
 * tombstone leave their level in one edit, unread and unrewritten (Pebble's delete-only
 * compaction; RocksDB has no automatic equivalent). A look runs on the background pool after
 * every version change of a database whose tables may hold range tombstones, before the
 * scheduler's next compactions are claimed (so that no merge rewrites a table that could go for
 * nothing), and first thing in {@code compactRange}.
 *
 * <p>The look reads the tables' tombstones without the engine mutex (the first look at a table
 * opens it); the claim, under the mutex, keeps only the files still in their level with the same
 * footer and held by no running compaction. A file found on an older version is still deletable
 * when it is unchanged: the tombstone that covered it lies in a table at or above it, which no
 * compaction rewrites without it while it exists (a bottommost merge that drops the tombstone
 * takes every file under it as a target), and a snapshot taken since sees the tombstone.
 */
final class DeleteOnlyCompactions {
  private static final System.Logger LOG = System.getLogger(DeleteOnlyCompactions.class.getName());

  private final Engine engine;
  private final Compactions compactions;

  // Guarded by the engine mutex.
  /** The version the last look was queued for; compared by identity only. */
  private Version lastLooked;
  private boolean queued;

  DeleteOnlyCompactions(Engine engine, Compactions compactions) {
    this.engine = engine;
    this.compactions = compactions;
  }

  /**
   * Requires: mutex held. Queues a look, and returns true, when the current version may hold
   * range tombstones and has not been looked at and no look is pending; the caller then runs
   * {@link #runQueuedLook()} on the pool.
   */
  boolean queueLook() {
    assert engine.mutex().isHeldByCurrentThread();
    Version current = engine.versions().current();
    if (queued || current == lastLooked || !current.mayHoldRangeTombstones()) {
      return false;
    }
    lastLooked = current;
    queued = true;
    return true;
  }

  /**
   * Requires: mutex held. Whether a look is queued or running. While it is, the scheduler's
   * compactions wait: the look ends by asking for background work again.
   */
  boolean lookPending() {
    assert engine.mutex().isHeldByCurrentThread();
    return queued;
  }

  /** Requires: mutex held. The look {@link #lookPending()} queued could not start (the pool is closing). */
  void lookRejected() {
    assert engine.mutex().isHeldByCurrentThread();
    queued = false;
  }

  /** The queued look, on a background thread without the mutex. */
  void runQueuedLook() {
    try {
      look();
    } finally {
      engine.mutex().lock();
      try {
        queued = false;
        engine.background().maybeScheduleBackgroundWork();
      } catch (Throwable t) {
        engine.status().latch(t);
      } finally {
        engine.backgroundChanged().signalAll(); // close waits for the look
        engine.mutex().unlock();
      }
    }
  }

  /** Finds the deletable tables and deletes them, a level at a time; without the mutex. */
  void look() {
    List<List<FileMetaData>> found;
    Version v = engine.versions().refCurrent();
    try {
      if (!v.mayHoldRangeTombstones()) {
        return;
      }
      List<List<FileMetaData>> levels = new ArrayList<>();
      List<FileMetaData> all = new ArrayList<>();
      for (int level = 0; level < v.numLevels(); level++) {
        levels.add(v.files(level));
        all.addAll(v.files(level));
      }
      RangeTombstones tombstones = TableIterators.rangeTombstones(engine.tableCache(), all);
      // Read after the tombstones: a snapshot taken later is at or above every one of them.
      found = CoveredTables.find(levels, tombstones, engine.snapshots().sequencesAscending());
    } catch (RuntimeException e) {
      // A table that cannot be opened is reported by the reads and compactions that need it.
      LOG.log(System.Logger.Level.WARNING, "looking for tables under range tombstones failed: " + e);
      return;
    } finally {
      v.unref();
    }
    for (int level = 0; level < found.size(); level++) {
      if (found.get(level).isEmpty()) {
        continue;
      }
      Compactions.Claimed claimed;
      engine.mutex().lock();
      try {
        claimed = claim(level, found.get(level));
      } finally {
        engine.mutex().unlock();
      }
      if (claimed != null) {
        compactions.runClaimed(claimed);
      }
    }
  }

  /** Requires: mutex held. Claims the deletion of those of {@code files} still deletable; null if none is. */
  private Compactions.Claimed claim(int level, List<FileMetaData> files) {
    if (engine.status().isClosing() || engine.status().hasBackgroundError()) {
      return null;
    }
    ShapeAdapter shape = compactions.currentShape();
    RunningCompactions running = compactions.runningCompactions();
    List<FileDescriptor> inputs = new ArrayList<>();
    for (FileMetaData f : files) {
      FileMetaData now = unchangedInLevel(engine.versions().current(), level, f);
      if (now == null) {
        continue;
      }
      FileDescriptor d = ShapeAdapter.describe(now, engine.blockCache(), engine.options().blockBytes());
      if (running.allows(level, List.of(d), List.of())) {
        inputs.add(d);
      }
    }
    if (inputs.isEmpty()) {
      return null;
    }
    long bytes = inputs.stream().mapToLong(FileDescriptor::sizeBytes).sum();
    CompactionPlan plan = new CompactionPlan(CompactionKind.DELETE_ONLY, level, level, inputs, List.of(),
        List.of(), null, false, new OutputLimits(engine.options().targetFileBytes(), Long.MAX_VALUE),
        "L" + level + "'s " + inputs.size() + " table(s) of " + bytes + " bytes lie under newer range tombstones");
    return compactions.claimPlan(plan, shape);
  }

  /** {@code f} as {@code v} has it at {@code level}, if it is there with the same footer; else null. */
  private static FileMetaData unchangedInLevel(Version v, int level, FileMetaData f) {
    for (FileMetaData g : v.files(level)) {
      if (g.number() == f.number()) {
        return g.footerOffset() == f.footerOffset() && g.largestSequence() == f.largestSequence() ? g : null;
      }
    }
    return null;
  }

  /** Executes a delete-only plan: an edit that deletes its inputs, no I/O. */
  static CompactionExecution execution(CompactionPlan plan) {
    return new CompactionExecution() {
      @Override
      public VersionEdit run() {
        VersionEdit edit = new VersionEdit();
        plan.inputs().forEach(f -> edit.deleteFile(plan.inputLevel(), f.id()));
        return edit;
      }

      @Override
      public List<Long> outputNumbers() {
        return List.of();
      }
    };
  }
}

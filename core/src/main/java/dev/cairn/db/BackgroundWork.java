package dev.cairn.db;

import dev.cairn.Stats;
import dev.cairn.db.base.BackgroundRequests;
import dev.cairn.db.base.Engine;
import dev.cairn.db.base.EngineCounters;
import dev.cairn.db.base.EngineStatus;
import dev.cairn.db.base.ObsoleteFiles;
import dev.cairn.db.compact.Compactions;
import dev.cairn.db.write.FlushJob;
import dev.cairn.db.write.MemTables;
import dev.cairn.version.VersionEdit;
import dev.cairn.version.VersionSet;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The background pool and what runs on it: one flush at a time (the loop that writes the
 * immutable memtables out as L0 tables, oldest first), the compactions {@link Compactions} claims
 * (up to {@code backgroundThreads - 1} at once), and obsolete-file collection, also queued when the
 * last reference to a version is released. Answers every {@link BackgroundRequests} of the engine.
 *
 * <p>Locking: {@code flushScheduled} is guarded by the engine mutex; a flush or collection takes
 * the mutex to install its edit or list the directory and releases it for the I/O.
 */
final class BackgroundWork implements BackgroundRequests.Handler {
  private static final System.Logger LOG = System.getLogger(BackgroundWork.class.getName());

  private final Engine engine;
  private final VersionSet versions;
  private final EngineCounters counters;
  private final ReentrantLock mutex;
  private final Condition backgroundChanged;
  private final EngineStatus status;
  private final MemTables memTables;
  private final Compactions compactions;
  private final FlushCachingChoice flushCaching;
  private final ObsoleteFiles obsoleteFiles;
  /** Compactions and obsolete-file collection; flushes too, unless the threads are shared. */
  private final ExecutorService background;
  /** Flushes: {@link #background} itself, or the shared flush threads. */
  private final ExecutorService flushes;
  private final AtomicBoolean collectionQueued = new AtomicBoolean();
  /**
   * Set once the open installed its recovered state ({@link #recovered}): before, the version set
   * holds what the manifest says, which a failing open may be refusing (a manifest that lost an
   * edit names fewer tables than the directory holds), so nothing may be judged obsolete from it.
   */
  private volatile boolean recovered;

  // Guarded by the engine mutex.
  private boolean flushScheduled;

  BackgroundWork(Engine engine, MemTables memTables, Compactions compactions, FlushCachingChoice flushCaching) {
    this.engine = engine;
    this.versions = engine.versions();
    this.counters = engine.counters();
    this.mutex = engine.mutex();
    this.backgroundChanged = engine.backgroundChanged();
    this.status = engine.status();
    this.memTables = memTables;
    this.compactions = compactions;
    this.flushCaching = flushCaching;
    this.obsoleteFiles = new ObsoleteFiles(engine.fs(), engine.dir(), engine.tableCache(),
        compactions.style().obsoleteFileBatchBytes(), engine.counters().obsoleteTableBytes());
    this.versions.setVersionReleasedListener(this::onVersionReleased);
    if (engine.shared() == null) {
      AtomicInteger threadIds = new AtomicInteger();
      this.background = Executors.newFixedThreadPool(engine.options().backgroundThreads(), r -> {
        Thread t = new Thread(r, "cairn-bg-" + engine.dir().getFileName() + "-" + threadIds.incrementAndGet());
        t.setDaemon(true);
        return t;
      });
      this.flushes = background;
    } else {
      this.background = engine.shared().compactionGroup();
      this.flushes = engine.shared().flushGroup();
    }
  }

  /** Requires: mutex held. Whether flushes cache their blocks, and on what evidence. */
  Stats.FlushCaching flushCaching() {
    assert mutex.isHeldByCurrentThread();
    return flushCaching.stats();
  }

  /** Requires: mutex held. Starts a flush and as many compactions as the picker and threads allow. */
  @Override
  public void maybeScheduleBackgroundWork() {
    assert mutex.isHeldByCurrentThread();
    if (status.isClosing() || status.hasBackgroundError()) {
      return;
    }
    if (memTables.hasImmutable() && !flushScheduled) {
      flushes.execute(this::backgroundFlush); // runs once this thread releases the mutex
      flushScheduled = true;
    }
    if (compactions.queueDeleteOnlyLook()) {
      try {
        background.execute(compactions::runDeleteOnlyLook);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        compactions.deleteOnlyLookRejected(); // closing
      }
    }
    Compactions.Claimed claimed;
    while ((claimed = compactions.claimNext()) != null) {
      Compactions.Claimed plan = claimed;
      background.execute(() -> compactions.runClaimed(plan));
    }
  }

  private void backgroundFlush() {
    mutex.lock();
    try {
      while (memTables.hasImmutable() && !status.hasBackgroundError() && !status.isClosing()) {
        MemTables.ImmutableMemTable imm = memTables.oldestImmutable();
        VersionEdit edit = new VersionEdit();
        boolean cacheBlocks = flushCaching.forNextFlush(versions.current());
        long start = System.nanoTime();
        long table = FlushJob.flush(engine, compactions.style().tableOptions(), imm.mem(), edit, cacheBlocks);
        // Logs older than the next unflushed memtable's are no longer needed for recovery.
        edit.setLogNumber(memTables.logNumberAfterOldest());
        try {
          engine.installer().install(edit); // the manifest is synced without the mutex
        } finally {
          engine.pendingOutputs().release(List.of(table));
        }
        memTables.removeOldest();
        counters.flushes().increment();
        engine.events().flushed(edit, System.nanoTime() - start);
        backgroundChanged.signalAll();
        collectObsoleteFiles(false);
      }
    } catch (Throwable t) {
      status.latch(t);
    } finally {
      try {
        flushScheduled = false;
        maybeScheduleBackgroundWork();
      } catch (Throwable t) {
        status.latch(t);
      } finally {
        backgroundChanged.signalAll();
        mutex.unlock();
      }
    }
  }

  /**
   * Requires: mutex held. The open installed its recovered state: obsolete files may be collected
   * from here on, starting now.
   */
  void recovered() {
    assert mutex.isHeldByCurrentThread();
    recovered = true;
    collectObsoleteFiles(false);
  }

  /**
   * Requires: mutex held (released while the directory is listed and files are deleted, held
   * again on return). Deletes unreferenced files, in batches or all when {@code force}. Only the
   * live set is taken under the mutex, with the first file number not yet allocated: a file
   * created after that, which the live set cannot know, has a number at least that large and is
   * kept, and numbers are never reused, so a file judged obsolete stays obsolete. Listing and
   * unlinking run without the mutex, so writers and readers wait behind neither. Nothing before
   * the open installed its recovered state ({@link #recovered}).
   */
  @Override
  public void collectObsoleteFiles(boolean force) {
    assert mutex.isHeldByCurrentThread();
    if (!recovered) {
      return;
    }
    ObsoleteFiles.LiveSet live = new ObsoleteFiles.LiveSet(
        versions.liveFileNumbers(), engine.pendingOutputs().snapshot(), versions.logNumber(),
        versions.manifestFileNumber(), versions.nextFileNumber());
    mutex.unlock();
    try {
      List<String> obsolete = obsoleteFiles.find(live);
      if (!obsolete.isEmpty()) {
        obsoleteFiles.delete(obsolete, force);
      }
    } catch (IOException | RuntimeException e) {
      // Leftover files cost space, not correctness; the next collection tries again.
      LOG.log(System.Logger.Level.WARNING, "obsolete-file collection failed: " + e);
    } finally {
      mutex.lock();
    }
  }

  /**
   * Called when a version is no longer referenced (an iterator or read released it): its files
   * may now be obsolete. Collection runs on the background pool, at most one queued at a time.
   */
  private void onVersionReleased() {
    if (!recovered || status.isClosing() || !collectionQueued.compareAndSet(false, true)) {
      return;
    }
    try {
      background.execute(() -> {
        collectionQueued.set(false);
        mutex.lock();
        try {
          if (!status.isClosing()) {
            collectObsoleteFiles(false);
          }
        } finally {
          mutex.unlock();
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // Closing: close() collects everything itself.
      collectionQueued.set(false);
    }
  }

  /** Requires: mutex held. Whether a flush is scheduled or a compaction is running. */
  boolean busy() {
    assert mutex.isHeldByCurrentThread();
    return flushScheduled || compactions.running() > 0;
  }

  /** Close: lets the pool finish what it was given (bounded) and stops it. */
  void shutdown() {
    background.shutdown();
    flushes.shutdown();
    try {
      background.awaitTermination(1, TimeUnit.MINUTES);
      flushes.awaitTermination(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Failed open: stops the pool, skipping what has not started, and waits (bounded) for what has,
   * so that no task touches the engine after its resources are released.
   */
  void shutdownNow() {
    background.shutdownNow();
    flushes.shutdownNow();
    try {
      background.awaitTermination(1, TimeUnit.MINUTES);
      flushes.awaitTermination(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

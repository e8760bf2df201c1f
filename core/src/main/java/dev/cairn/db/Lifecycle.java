package dev.cairn.db;

import dev.cairn.CairnIOException;
import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.compaction.adapt.FlushCachingPolicy;
import dev.cairn.db.base.Engine;
import dev.cairn.db.base.SharedPools;
import dev.cairn.db.compact.Compactions;
import dev.cairn.db.read.BufferScans;
import dev.cairn.db.read.PointReads;
import dev.cairn.db.write.MemTables;
import dev.cairn.db.write.WriteQueue;
import dev.cairn.fs.FileSystem;
import dev.cairn.util.Teardown;
import dev.cairn.version.VersionEdit;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Opening and closing a database: builds the engine's parts around one {@link Engine} context,
 * recovers, starts the background tasks; on close refuses new calls and takes the engine down in
 * the order the comments in {@link #close()} give, each step for the reason stated there; a failed
 * open releases what it built.
 */
final class Lifecycle {
  private static final System.Logger LOG = System.getLogger(Lifecycle.class.getName());

  private final Engine engine;
  private final AutoCloseable dbLock;
  /** Public calls running now; close() waits for them (see InFlightCalls). */
  private final InFlightCalls calls;
  /** Where point reads ended, by level: the read path counts, the buffer's space bound reads. */
  private final PointReads pointReads;
  /** The level files iterators may read from buffer files: a buffer fills it, the read path reads. */
  private final BufferScans scans;
  private final Compactions compactions;
  private final MemTables memTables;
  private final WriteQueue writes;
  private final BackgroundWork background;
  private final AtomicBoolean closed = new AtomicBoolean();

  private Lifecycle(Path dir, Options options, SharedPools shared, AutoCloseable dbLock) {
    this.dbLock = dbLock;
    this.calls = new InFlightCalls("database " + dir);
    this.engine = new Engine(dir, options, shared);
    try {
      this.pointReads = new PointReads();
      this.scans = new BufferScans();
      this.compactions = StyleRegistry.compactions(engine, pointReads, scans);
      this.memTables = new MemTables(engine);
      this.writes = new WriteQueue(engine, memTables);
      FlushCachingChoice flushCaching =
          new FlushCachingChoice(options.flushCaching(), FlushCachingPolicy.defaults(), pointReads,
              engine.versions()::nextFileNumber);
      engine.mutex().lock();
      try {
        engine.onVersionInstalled(flushCaching::versionInstalled);
      } finally {
        engine.mutex().unlock();
      }
      this.background = new BackgroundWork(engine, memTables, compactions, flushCaching);
      engine.background().bind(background);
    } catch (RuntimeException | Error e) {
      // The engine counts into budgets that outlive this database (the process's open tables, a
      // shared cache): an open that fails here gives them back. The caller unlocks the directory.
      Teardown.runAllAfter(e, engine::releaseCaches);
      throw e;
    }
  }

  /**
   * Locks {@code dir}, builds the engine, recovers and starts the background tasks; {@code
   * shared} (or null) is what the database shares with others.
   */
  static Lifecycle open(Path dir, Options options, SharedPools shared) {
    FileSystem fs = options.fileSystem();
    AutoCloseable lock = DatabaseDirectory.prepareAndLock(fs, dir, options);
    Lifecycle life = null;
    try {
      life = new Lifecycle(dir, options, shared, lock);
      life.recover();
      life.compactions.start();
      if (shared == null && options.blockCacheBytes() == 0) {
        life.engine.events().openedWithoutCache();
      }
      return life;
    } catch (RuntimeException | Error e) {
      if (life != null) {
        life.closeAfterFailedOpen(e);
      } else {
        DatabaseDirectory.unlockQuietly(lock);
      }
      throw e;
    }
  }

  private void recover() {
    engine.mutex().lock();
    try {
      VersionEdit edit = new VersionEdit();
      new Recovery(engine, compactions.style().tableOptions()).recover(edit);
      long logNumber = memTables.createLog();
      engine.fs().syncDirectory(engine.dir());
      edit.setLogNumber(logNumber);
      engine.versions().logAndApply(edit);
      engine.pendingOutputs().clear();
      memTables.createMemTable();
      background.recovered();
      background.maybeScheduleBackgroundWork();
    } catch (IOException e) {
      throw new CairnIOException("recovering database " + engine.dir(), e);
    } finally {
      engine.mutex().unlock();
    }
  }

  Engine engine() {
    return engine;
  }

  InFlightCalls calls() {
    return calls;
  }

  PointReads pointReads() {
    return pointReads;
  }

  BufferScans scans() {
    return scans;
  }

  Compactions compactions() {
    return compactions;
  }

  MemTables memTables() {
    return memTables;
  }

  WriteQueue writes() {
    return writes;
  }

  /** The engine's figures now (see {@link Stats}). */
  Stats stats() {
    engine.mutex().lock();
    try {
      return StatsBuilder.build(engine, compactions, pointReads, background.flushCaching(),
          engine.versions().current(), memTables.activeBytes(), memTables.immutableCount());
    } finally {
      engine.mutex().unlock();
    }
  }

  /** See {@link dev.cairn.Cairn#close()}. */
  void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    calls.refuseNew();
    compactions.stop();
    engine.mutex().lock();
    try {
      engine.status().markClosing();
      engine.backgroundChanged().signalAll();
      writes.wakeAll();
    } finally {
      engine.mutex().unlock();
    }
    // Calls waiting on the engine (stalled writers, flush) see `closing` and give up; the rest
    // finish. Only then may the log be closed and the caches released under them.
    calls.awaitDrained();
    // No read runs now: drop the references reads kept, so that the version they held is the
    // current one's alone and the obsolete-file sweep below sees every file it may delete.
    engine.cachedVersions().close();
    engine.mutex().lock();
    try {
      // A leader appending to the log without the mutex must finish before the log is closed,
      // or a clean close could leave a torn record (and two threads in the LogWriter). The drain
      // above already waited for it; the flag keeps this true on its own.
      while (background.busy() || writes.logWriteInProgress()) {
        engine.backgroundChanged().awaitUninterruptibly();
      }
    } finally {
      engine.mutex().unlock();
    }
    background.shutdown();
    engine.mutex().lock();
    try {
      try {
        memTables.syncAndCloseLog();
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "closing the log: " + e);
      }
      background.collectObsoleteFiles(true);
    } finally {
      engine.mutex().unlock();
    }
    try {
      releaseResources();
    } finally {
      if (engine.shared() != null) {
        engine.shared().released(); // failed opens release in DbImpl.open
      }
    }
  }

  /** Releases what a failed open took, whatever each step throws; the open's failure is reported. */
  private void closeAfterFailedOpen(Throwable failure) {
    closed.set(true);
    Teardown.runAllAfter(failure,
        engine.status()::markClosing,
        compactions::stop,
        background::shutdownNow,
        engine.cachedVersions()::close,
        memTables::closeLog,
        this::releaseResources);
  }

  /** Each step runs whatever the ones before it threw; the first failure is thrown at the end. */
  private void releaseResources() {
    Teardown.runAll("releasing database " + engine.dir(),
        this::closeManifest,
        engine::releaseCaches,
        this::leaveMemTableBudget,
        () -> DatabaseDirectory.unlockQuietly(dbLock));
  }

  private void closeManifest() {
    try {
      engine.versions().close();
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "closing the manifest: " + e);
    }
  }

  private void leaveMemTableBudget() {
    engine.mutex().lock();
    try {
      memTables.leaveBudget();
    } finally {
      engine.mutex().unlock();
    }
  }
}

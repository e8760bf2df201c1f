package dev.cairn.db;

import dev.cairn.Cairn;
import dev.cairn.CairnException;
import dev.cairn.CairnIOException;
import dev.cairn.DatabaseChangedException;
import dev.cairn.Options;
import dev.cairn.Snapshot;
import dev.cairn.Stats;
import dev.cairn.db.base.Engine;
import dev.cairn.db.compact.Compactions;
import dev.cairn.db.read.BufferScans;
import dev.cairn.db.read.PointReads;
import dev.cairn.db.read.ReadState;
import dev.cairn.db.read.SnapshotImpl;
import dev.cairn.fs.FileNames;
import dev.cairn.memtable.MemTable;
import dev.cairn.util.Teardown;
import dev.cairn.version.ManifestMark;
import dev.cairn.version.Version;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A read-only, point-in-time view of a database ({@link Cairn#openReadOnly}): the manifest's
 * version and the logs' writes replayed into memory, as of the open. It takes no LOCK and writes
 * nothing: no log, no manifest, no table, no compaction, no deletion. So it can look at a
 * database another process holds, as RocksDB's read-only and secondary instances do.
 *
 * <p>Beside a live owner the view goes stale: the owner's compactions delete tables the view still
 * names. A read that meets a missing file checks whether the manifest moved since the open
 * ({@link ManifestMark}); if it did, the failure is a {@link DatabaseChangedException} ("reopen and
 * retry"), never corruption. If the manifest did not move, nobody changed the database and the
 * failure stands as it is.
 */
final class ReadOnlyView implements OpenDatabase {
  /** Opens that met a moving owner are retried; an owner that never pauses this long wins. */
  private static final int OPEN_ATTEMPTS = 5;

  private final Engine engine;
  private final Compactions compactions;
  private final InFlightCalls calls;
  /** Where this view's point reads ended, by level. */
  private final PointReads pointReads;
  /** Empty: a view installs nothing, so no merge records scan sources. */
  private final BufferScans scans;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final ManifestMark openedAt;
  // Set once by recover(), before the view is published.
  private Version version;
  private List<MemTable> memtables = List.of();
  private long sequence;

  private ReadOnlyView(Path dir, Options options, ManifestMark openedAt) {
    this.engine = new Engine(dir, options);
    this.pointReads = new PointReads();
    this.scans = new BufferScans();
    try {
      this.compactions = StyleRegistry.compactions(engine, pointReads, scans);
    } catch (RuntimeException | Error e) {
      Teardown.runAllAfter(e, engine::releaseCaches); // its open tables count into the process's budget
      throw e;
    }
    this.calls = new InFlightCalls("read-only view of " + dir);
    this.openedAt = openedAt;
  }

  /** See {@link Cairn#openReadOnly}. */
  static ReadOnlyView open(Path dir, Options options) {
    if (!options.fileSystem().exists(dir.resolve(FileNames.CURRENT))) {
      throw new CairnException("database " + dir + " does not exist (no CURRENT file); a read-only open creates nothing");
    }
    RuntimeException lastFailure = null;
    for (int attempt = 0; attempt < OPEN_ATTEMPTS; attempt++) {
      ManifestMark before = ManifestMark.read(options.fileSystem(), dir);
      ReadOnlyView db = new ReadOnlyView(dir, options, before);
      try {
        boolean stoppedShort = db.recover();
        if (!stoppedShort || before.equals(ManifestMark.read(options.fileSystem(), dir))) {
          return db;
        }
        // POINT_IN_TIME stopped at a log its owner may have retired meanwhile: not the owner's
        // point in time, but a moving owner's. Open again.
        db.version.unref();
        db.release();
        lastFailure = new DatabaseChangedException("database " + dir + " changed while a read-only view recovered"
            + " its logs (mode POINT_IN_TIME stopped short of their end)", null);
      } catch (RuntimeException e) {
        Teardown.runAllAfter(e, db::release);
        if (before.equals(ManifestMark.read(options.fileSystem(), dir))) {
          throw e; // nobody moved the database: the failure is the database's own
        }
        lastFailure = e;
      }
    }
    throw new DatabaseChangedException("database " + dir + " changed underneath each of " + OPEN_ATTEMPTS
        + " attempts to open a read-only view (its owner is flushing or compacting); retry", lastFailure);
  }

  /** Recovers the view's state; returns whether {@code POINT_IN_TIME} stopped short of the logs' end. */
  private boolean recover() {
    engine.mutex().lock();
    try {
      Recovery recovery = new Recovery(engine, compactions.style().tableOptions());
      memtables = List.copyOf(recovery.recoverInMemory());
      sequence = engine.versions().lastSequence();
      version = engine.versions().current();
      version.ref();
      return recovery.stoppedShort();
    } catch (IOException e) {
      throw new CairnIOException("opening a read-only view of " + engine.dir(), e);
    } finally {
      engine.mutex().unlock();
    }
  }

  @Override
  public Engine engine() {
    return engine;
  }

  @Override
  public InFlightCalls calls() {
    return calls;
  }

  @Override
  public long latestSequence() {
    return sequence;
  }

  @Override
  public byte[] get(byte[] key, long sequence, boolean fillCache) {
    try (ReadState state = pin(sequence)) {
      return state.get(key, fillCache);
    }
  }

  @Override
  public ReadState pin(long sequence) {
    version.ref();
    return new ReadState(engine.tableCache(), pointReads, scans, engine.merger(), memtables, version, sequence);
  }

  @Override
  public Snapshot snapshot(Cairn owner) {
    return new SnapshotImpl(owner, engine.snapshots(), sequence);
  }

  @Override
  public Stats stats() {
    engine.mutex().lock();
    try {
      long bytes = memtables.stream().mapToLong(MemTable::approximateBytes).sum();
      return StatsBuilder.build(engine, compactions, pointReads,
          Stats.FlushCaching.pinned(Options.FlushCaching.NEVER), version, bytes, memtables.size());
    } finally {
      engine.mutex().unlock();
    }
  }

  @Override
  public RuntimeException failure(RuntimeException e) {
    return changedUnderneathOr(e);
  }

  /**
   * A missing file after the owner moved the manifest: the view is stale, not the database
   * damaged. Anything else is returned as it is.
   */
  private RuntimeException changedUnderneathOr(RuntimeException e) {
    if (e instanceof CairnIOException && causedByMissingFile(e)
        && !openedAt.equals(ManifestMark.read(engine.fs(), engine.dir()))) {
      return new DatabaseChangedException("database " + engine.dir() + " changed underneath this read-only view"
          + " (its owner deleted a file the view reads: " + e.getMessage() + "); close the view, reopen it and retry", e);
    }
    return e;
  }

  private static boolean causedByMissingFile(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof NoSuchFileException || t instanceof java.io.FileNotFoundException) {
        return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- close

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    calls.refuseNew();
    calls.awaitDrained();
    version.unref();
    release();
  }

  /** Releases the caches, the manifest reader's state and the buffer's idle executor. */
  private void release() {
    Teardown.runAll("releasing the read-only view of " + engine.dir(),
        compactions::stop,
        this::closeManifest,
        engine::releaseCaches);
  }

  private void closeManifest() {
    try {
      engine.versions().close();
    } catch (IOException e) {
      // Nothing was written; closing a manifest the view never opened cannot lose anything.
    }
  }
}

package dev.cairn.db;

import dev.cairn.Cairn;
import dev.cairn.CairnIOException;
import dev.cairn.CairnIterator;
import dev.cairn.Entry;
import dev.cairn.Options;
import dev.cairn.ReadOptions;
import dev.cairn.Snapshot;
import dev.cairn.Stats;
import dev.cairn.WriteBatch;
import dev.cairn.WriteOptions;
import dev.cairn.fs.FileSystem;
import dev.cairn.memtable.MemTable;
import dev.cairn.table.TableCache;
import dev.cairn.version.Version;
import dev.cairn.version.VersionEdit;
import dev.cairn.version.VersionSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The engine: owns the memtables, the write-ahead log, the version set and the background work,
 * and implements {@link Cairn}. See docs/architecture.md for the threads and the locking.
 *
 * <p>Locking. One {@link #mutex} guards the mutable engine state (the fields marked "guarded by
 * mutex"). Writers queue up under it and the writer at the head commits the whole queue as one
 * group (LevelDB's group commit): it appends the group's batch to the WAL and inserts it into the
 * memtable with the mutex released, which is safe because only the head writer may switch
 * memtables or logs. Readers take the mutex only to pin the memtables and the current version.
 * Background jobs (flush, compaction) do their I/O without the mutex and take it to install a
 * version edit.
 */
public final class DbImpl implements Cairn {
  private final Engine engine;
  private final Path dir;
  private final Options options;
  private final FileSystem fs;
  private final TableCache tableCache;
  private final VersionSet versions;
  private final EngineCounters counters;
  private final ReentrantLock mutex;
  private final Condition backgroundChanged;
  private final EngineStatus status;
  private final Compactions compactions;

  private final AutoCloseable dbLock;
  private final BackgroundWork background;
  private final AtomicBoolean closed = new AtomicBoolean();
  private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(DbImpl.class.getName());
  /** Public calls running now; close() waits for them (see InFlightCalls). */
  private final InFlightCalls calls;

  private final MemTables memTables;
  private final WriteQueue writes;

  private DbImpl(Path dir, Options options, AutoCloseable dbLock) {
    this.dbLock = dbLock;
    this.calls = new InFlightCalls("database " + dir);
    this.engine = new Engine(dir, options);
    this.dir = dir;
    this.options = options;
    this.fs = engine.fs();
    this.tableCache = engine.tableCache();
    this.versions = engine.versions();
    this.counters = engine.counters();
    this.mutex = engine.mutex();
    this.backgroundChanged = engine.backgroundChanged();
    this.status = engine.status();
    this.compactions = new Compactions(engine);
    this.memTables = new MemTables(engine);
    this.writes = new WriteQueue(engine, memTables);
    this.background = new BackgroundWork(engine, memTables, compactions);
    engine.background().bind(background);
  }

  /** See {@link Cairn#open}. */
  public static Cairn open(Path dir, Options options) {
    if (dir == null) {
      throw new IllegalArgumentException("database directory must not be null");
    }
    if (options == null) {
      throw new IllegalArgumentException("options must not be null");
    }
    FileSystem fs = options.fileSystem();
    AutoCloseable lock = DatabaseDirectory.prepareAndLock(fs, dir, options);
    DbImpl db = null;
    try {
      db = new DbImpl(dir, options, lock);
      db.recover();
      db.compactions.start();
      return db;
    } catch (RuntimeException | Error e) {
      if (db != null) {
        db.closeAfterFailedOpen();
      } else {
        DatabaseDirectory.unlockQuietly(lock);
      }
      throw e;
    }
  }

  private void recover() {
    mutex.lock();
    try {
      VersionEdit edit = new VersionEdit();
      new Recovery(engine, compactions.style().tableOptions()).recover(edit);
      long logNumber = memTables.createLog();
      fs.syncDirectory(dir);
      edit.setLogNumber(logNumber);
      versions.logAndApply(edit);
      engine.pendingOutputs().clear();
      memTables.createMemTable();
      background.collectObsoleteFiles(false);
      background.maybeScheduleBackgroundWork();
    } catch (IOException e) {
      throw new CairnIOException("recovering database " + dir, e);
    } finally {
      mutex.unlock();
    }
  }

  // ---------------------------------------------------------------- writes

  @Override
  public void put(byte[] key, byte[] value) {
    write(new WriteBatch().put(key, value), defaultWriteOptions());
  }

  @Override
  public void put(byte[] key, byte[] value, WriteOptions options) {
    write(new WriteBatch().put(key, value), options);
  }

  @Override
  public void delete(byte[] key) {
    write(new WriteBatch().delete(key), defaultWriteOptions());
  }

  @Override
  public void delete(byte[] key, WriteOptions options) {
    write(new WriteBatch().delete(key), options);
  }

  @Override
  public void write(WriteBatch batch) {
    write(batch, defaultWriteOptions());
  }

  private WriteOptions defaultWriteOptions() {
    return options.syncWrites() ? WriteOptions.SYNC : WriteOptions.NO_SYNC;
  }

  @Override
  public void write(WriteBatch batch, WriteOptions writeOptions) {
    if (batch == null) {
      throw new IllegalArgumentException("write batch must not be null");
    }
    if (writeOptions == null) {
      throw new IllegalArgumentException("write options must not be null");
    }
    calls.enter();
    try {
      writes.write(batch, writeOptions);
    } finally {
      calls.exit();
    }
  }

  // ---------------------------------------------------------------- reads

  @Override
  public byte[] get(byte[] key) {
    return get(key, ReadOptions.DEFAULT);
  }

  @Override
  public byte[] get(byte[] key, ReadOptions readOptions) {
    checkKey(key);
    if (readOptions == null) {
      throw new IllegalArgumentException("read options must not be null");
    }
    calls.enter();
    long start = System.nanoTime();
    try (ReadState state = pinReadState(readOptions.snapshot())) {
      return state.get(key, readOptions.fillCache());
    } finally {
      counters.getLatency.recordSince(start);
      calls.exit();
    }
  }

  /** Pins the memtables and the current version for one read or iterator. */
  ReadState pinReadState(Snapshot snapshot) {
    long sequence;
    if (snapshot != null) {
      if (!(snapshot instanceof SnapshotImpl s) || s.owner() != this) {
        throw new IllegalArgumentException("snapshot belongs to another database");
      }
      s.ensureOpen();
      sequence = s.sequence();
    } else {
      sequence = -1;
    }
    mutex.lock();
    try {
      Version v = versions.current();
      v.ref();
      List<MemTable> memtables = memTables.newestFirst();
      return new ReadState(tableCache, compactions.buffer().reads(), memtables, v,
          sequence >= 0 ? sequence : versions.lastSequence());
    } finally {
      mutex.unlock();
    }
  }

  @Override
  public Snapshot snapshot() {
    calls.enter();
    mutex.lock();
    try {
      return new SnapshotImpl(this, engine.snapshots(), versions.lastSequence());
    } finally {
      mutex.unlock();
      calls.exit();
    }
  }

  @Override
  public CairnIterator iterator(ReadOptions readOptions) {
    if (readOptions == null) {
      throw new IllegalArgumentException("read options must not be null");
    }
    calls.enter();
    try {
      return new InFlightIterator(pinReadState(readOptions.snapshot()).iterator(readOptions), calls);
    } finally {
      calls.exit();
    }
  }

  @Override
  public List<Entry> scan(byte[] from, byte[] toExclusive, int limit) {
    if (from == null) {
      throw new IllegalArgumentException("scan start key must not be null (use an empty array for the first key)");
    }
    if (limit < 0) {
      throw new IllegalArgumentException("scan limit must not be negative: " + limit);
    }
    long start = System.nanoTime();
    List<Entry> out = new ArrayList<>(Math.min(limit, 1024));
    try (CairnIterator it = iterator(ReadOptions.DEFAULT.withBounds(from, toExclusive))) {
      for (it.seekToFirst(); it.isValid() && out.size() < limit; it.next()) {
        out.add(new Entry(it.key(), it.value()));
      }
    } finally {
      counters.scanLatency.recordSince(start);
    }
    return out;
  }

  // ---------------------------------------------------------------- maintenance

  @Override
  public void flush() {
    calls.enter();
    try {
      writes.flush();
    } finally {
      calls.exit();
    }
  }

  @Override
  public void compactRange(byte[] from, byte[] to) {
    calls.enter();
    try {
      flush();
      compactions.compactRangeManually(from, to);
    } finally {
      calls.exit();
    }
  }

  @Override
  public Stats stats() {
    calls.enter();
    mutex.lock();
    try {
      return StatsBuilder.build(engine, compactions, versions.current(), memTables.activeBytes(),
          memTables.immutableCount());
    } finally {
      mutex.unlock();
      calls.exit();
    }
  }

  @Override
  public int verifyChecksums() {
    calls.enter();
    try (ReadState state = pinReadState(null)) {
      return state.verifyTables();
    } finally {
      calls.exit();
    }
  }

  /** The number of the active memtable's log (tests). */
  long logNumber() {
    return memTables.logNumber();
  }

  static void checkKey(byte[] key) {
    if (key == null) {
      throw new IllegalArgumentException("key must not be null");
    }
    if (key.length == 0) {
      throw new IllegalArgumentException("key must not be empty");
    }
    if (key.length > Options.MAX_KEY_BYTES) {
      throw new IllegalArgumentException(
          "key of " + key.length + " bytes exceeds the limit of " + Options.MAX_KEY_BYTES);
    }
  }

  // ---------------------------------------------------------------- close

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    calls.refuseNew();
    compactions.stop();
    mutex.lock();
    try {
      status.markClosing();
      backgroundChanged.signalAll();
      writes.wakeAll();
    } finally {
      mutex.unlock();
    }
    // Calls waiting on the engine (stalled writers, flush) see `closing` and give up; the rest
    // finish. Only then may the log be closed and the caches released under them.
    calls.awaitDrained();
    mutex.lock();
    try {
      // A leader appending to the log without the mutex must finish before the log is closed,
      // or a clean close could leave a torn record (and two threads in the LogWriter). The drain
      // above already waited for it; the flag keeps this true on its own.
      while (background.busy() || writes.logWriteInProgress()) {
        backgroundChanged.awaitUninterruptibly();
      }
    } finally {
      mutex.unlock();
    }
    background.shutdown();
    mutex.lock();
    try {
      try {
        memTables.syncAndCloseLog();
      } catch (IOException e) {
        LOG.warning("closing the log: " + e);
      }
      background.collectObsoleteFiles(true);
    } finally {
      mutex.unlock();
    }
    releaseResources();
  }

  private void closeAfterFailedOpen() {
    closed.set(true);
    status.markClosing();
    compactions.stop();
    background.shutdownNow();
    try {
      memTables.closeLog();
    } catch (IOException e) {
      // The open already failed; its exception is the one to report.
    }
    releaseResources();
  }

  private void releaseResources() {
    try {
      versions.close();
    } catch (IOException e) {
      LOG.warning("closing the manifest: " + e);
    }
    tableCache.close();
    engine.blockCache().close();
    DatabaseDirectory.unlockQuietly(dbLock);
  }

  /** The LSbM compaction buffer (appending and trimming only with the BUFFER style). */
  BufferRuntime buffer() {
    return compactions.buffer();
  }

  /** The engine context (tests). */
  Engine engine() {
    return engine;
  }

  /** The compactions (tests). */
  Compactions compactions() {
    return compactions;
  }
}

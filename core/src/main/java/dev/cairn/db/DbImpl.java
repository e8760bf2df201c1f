package dev.cairn.db;

import dev.cairn.Cairn;
import dev.cairn.CairnIOException;
import dev.cairn.CairnIterator;
import dev.cairn.Entry;
import dev.cairn.Options;
import dev.cairn.ReadOnlyException;
import dev.cairn.ReadOptions;
import dev.cairn.Snapshot;
import dev.cairn.Stats;
import dev.cairn.VerifyProgress;
import dev.cairn.WriteBatch;
import dev.cairn.WriteOptions;
import dev.cairn.cache.BlockCacheTrace;
import dev.cairn.db.base.Engine;
import dev.cairn.db.base.MergeWrites;
import dev.cairn.db.base.WriteTimes;
import dev.cairn.iter.StoredValues;
import dev.cairn.db.compact.Compactions;
import dev.cairn.db.read.ReadState;
import dev.cairn.db.read.SnapshotImpl;
import dev.cairn.fs.FileSystem;
import dev.cairn.key.UserKeys;
import dev.cairn.table.codec.BlockCodecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine's API facade, for a database open for writes and for a read-only view alike:
 * implements {@link Cairn} by checking arguments, counting each call in flight ({@link
 * InFlightCalls}, which close waits for), timing it, and handing the work to the open database
 * ({@link OpenDatabase}). It takes no lock and holds no engine state of its own
 * (docs/architecture.md, "Threads and locking").
 *
 * <ul>
 *   <li>{@link LiveDatabase}: writes (group commit), flush and manual compaction; reads of the
 *       live memtables and the current version; close through {@link Lifecycle};
 *   <li>{@link ReadOnlyView}: reads of the memtables and version it recovered at open; writes,
 *       flushes and compactions throw {@link ReadOnlyException}; a read that meets a file its
 *       owner deleted reports the view as stale.
 * </ul>
 */
public final class DbImpl implements Cairn {
  private final OpenDatabase db;
  /** The database writes go to; null in a read-only view. */
  private final LiveDatabase live;
  private final Engine engine;
  /** Public calls running now; close() waits for them (see InFlightCalls). */
  private final InFlightCalls calls;

  private DbImpl(OpenDatabase db, LiveDatabase live) {
    this.db = db;
    this.live = live;
    this.engine = db.engine();
    this.calls = db.calls();
  }

  /** See {@link Cairn#open}; {@code shared} is null or what the database shares with others. */
  public static Cairn open(Path dir, Options options, SharedState shared) {
    try {
      checkOpenArguments(dir, options);
      // A codec whose library is missing fails the open, naming it, not the first flush after it.
      BlockCodecs.forWriting(options.compression());
      BlockCodecs.forWriting(options.bottommostCompression());
      LiveDatabase live = LiveDatabase.open(dir, options, shared == null ? null : shared.pools());
      return new DbImpl(live, live);
    } catch (RuntimeException | Error e) {
      if (shared != null) {
        shared.pools().released(); // reserved by SharedResources before the open
      }
      throw e;
    }
  }

  /** See {@link Cairn#openReadOnly}. */
  public static Cairn openReadOnly(Path dir, Options options) {
    checkOpenArguments(dir, options);
    return new DbImpl(ReadOnlyView.open(dir, options), null);
  }

  private static void checkOpenArguments(Path dir, Options options) {
    if (dir == null) {
      throw new IllegalArgumentException("database directory must not be null");
    }
    if (options == null) {
      throw new IllegalArgumentException("options must not be null");
    }
  }

  // ---------------------------------------------------------------- writes

  @Override
  public void put(byte[] key, byte[] value) {
    writable("put");
    write(new WriteBatch().put(key, value), defaultWriteOptions());
  }

  @Override
  public void put(byte[] key, byte[] value, WriteOptions options) {
    writable("put");
    write(new WriteBatch().put(key, value), options);
  }

  @Override
  public void delete(byte[] key) {
    writable("delete");
    write(new WriteBatch().delete(key), defaultWriteOptions());
  }

  @Override
  public void delete(byte[] key, WriteOptions options) {
    writable("delete");
    write(new WriteBatch().delete(key), options);
  }

  @Override
  public void deleteRange(byte[] from, byte[] toExclusive) {
    writable("deleteRange");
    write(new WriteBatch().deleteRange(from, toExclusive), defaultWriteOptions());
  }

  @Override
  public void deleteRange(byte[] from, byte[] toExclusive, WriteOptions options) {
    writable("deleteRange");
    write(new WriteBatch().deleteRange(from, toExclusive), options);
  }

  @Override
  public void merge(byte[] key, byte[] operand) {
    writable("merge");
    write(new WriteBatch().merge(key, operand), defaultWriteOptions());
  }

  @Override
  public void merge(byte[] key, byte[] operand, WriteOptions options) {
    writable("merge");
    write(new WriteBatch().merge(key, operand), options);
  }

  @Override
  public void write(WriteBatch batch) {
    write(batch, defaultWriteOptions());
  }

  private WriteOptions defaultWriteOptions() {
    return engine.options().syncWrites() ? WriteOptions.SYNC : WriteOptions.NO_SYNC;
  }

  @Override
  public void write(WriteBatch batch, WriteOptions writeOptions) {
    LiveDatabase target = writable("write");
    if (batch == null) {
      throw new IllegalArgumentException("write batch must not be null");
    }
    if (writeOptions == null) {
      throw new IllegalArgumentException("write options must not be null");
    }
    if (batch.merges() > 0) {
      MergeWrites.check(batch, engine.options().mergeOperator());
    }
    WriteTimes writeTimes = engine.writeTimes();
    WriteBatch stored = writeTimes == null ? batch : writeTimes.stamp(batch);
    calls.enter();
    try {
      target.write(stored, writeOptions);
    } finally {
      calls.exit();
    }
  }

  /** The database writes go to; in a read-only view, throws naming {@code what} was refused. */
  private LiveDatabase writable(String what) {
    if (live == null) {
      throw new ReadOnlyException("database " + engine.dir() + " is open read-only: " + what + " is not allowed");
    }
    return live;
  }

  // ---------------------------------------------------------------- reads

  @Override
  public byte[] get(byte[] key) {
    return get(key, ReadOptions.DEFAULT);
  }

  @Override
  public byte[] get(byte[] key, ReadOptions readOptions) {
    UserKeys.checkValid(key);
    if (readOptions == null) {
      throw new IllegalArgumentException("read options must not be null");
    }
    calls.enter();
    long start = System.nanoTime();
    try {
      byte[] value = db.get(key, sequenceFor(readOptions.snapshot()), readOptions.fillCache());
      WriteTimes writeTimes = engine.writeTimes();
      return value == null || writeTimes == null ? value : writeTimes.userValue(value, writeTimes.now());
    } catch (RuntimeException e) {
      throw db.failure(e);
    } finally {
      engine.counters().getLatency().recordSince(start);
      calls.exit();
    }
  }

  /** The sequence a read at {@code snapshot} (null: none) reads at. */
  private long sequenceFor(Snapshot snapshot) {
    return SnapshotImpl.sequenceFor(snapshot, this, db.latestSequence());
  }

  @Override
  public Snapshot snapshot() {
    calls.enter();
    try {
      return db.snapshot(this);
    } finally {
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
      WriteTimes writeTimes = engine.writeTimes();
      long now = writeTimes == null ? 0 : writeTimes.now(); // one instant for the whole iteration
      StoredValues values = writeTimes == null ? null : stored -> writeTimes.userValue(stored, now);
      return new InFlightIterator(db.pin(sequenceFor(readOptions.snapshot())).iterator(readOptions, values), calls,
          db::failure);
    } catch (RuntimeException e) {
      throw db.failure(e);
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
      engine.counters().scanLatency().recordSince(start);
    }
    return out;
  }

  // ---------------------------------------------------------------- maintenance

  @Override
  public void flush() {
    LiveDatabase target = writable("flush");
    calls.enter();
    try {
      target.flush();
    } finally {
      calls.exit();
    }
  }

  @Override
  public void compactRange(byte[] from, byte[] to) {
    LiveDatabase target = writable("compactRange");
    calls.enter();
    try {
      target.compactRange(from, to);
    } finally {
      calls.exit();
    }
  }

  @Override
  public void checkpoint(Path dir) {
    if (dir == null) {
      throw new IllegalArgumentException("checkpoint directory must not be null");
    }
    LiveDatabase target = writable("checkpoint");
    calls.enter();
    try {
      target.checkpoint(dir);
    } finally {
      calls.exit();
    }
  }

  /** What a backup does with the tables it pins ({@link #withPinnedTables}). */
  interface PinnedWork<T> {
    T run(PinnedTables tables, FileSystem databaseFiles) throws IOException;
  }

  /**
   * Flushes, pins the tables of the version that follows and runs {@code work} on them, as one
   * call in flight (close waits for it).
   */
  <T> T withPinnedTables(String what, PinnedWork<T> work) throws IOException {
    LiveDatabase target = writable(what);
    calls.enter();
    try (PinnedTables tables = PinnedTables.pin(engine, target::flush)) {
      return work.run(tables, engine.fs());
    } finally {
      calls.exit();
    }
  }

  @Override
  public Stats stats() {
    calls.enter();
    try {
      return db.stats();
    } finally {
      calls.exit();
    }
  }

  @Override
  public int verifyChecksums(VerifyProgress progress) {
    if (progress == null) {
      throw new IllegalArgumentException("progress must not be null (VerifyProgress.NONE)");
    }
    calls.enter();
    try (ReadState state = db.pin(sequenceFor(null))) {
      return state.verifyTables(progress);
    } catch (RuntimeException e) {
      throw db.failure(e);
    } finally {
      calls.exit();
    }
  }

  /** The number of the active memtable's log (tests). */
  long logNumber() {
    return writable("logNumber").logNumber();
  }

  // ---------------------------------------------------------------- close

  @Override
  public void close() {
    try {
      db.close();
    } finally {
      BlockCacheTrace trace = engine.blockCache().stopTrace();
      if (trace != null) {
        closeTrace(trace);
      }
    }
  }

  // ---------------------------------------------------------------- block cache traces

  @Override
  public void startBlockCacheTrace(Path file) {
    if (file == null) {
      throw new IllegalArgumentException("block cache trace file must not be null");
    }
    calls.enter();
    try {
      BlockCacheTrace trace;
      try {
        trace = BlockCacheTrace.create(file);
      } catch (IOException e) {
        throw new CairnIOException("create block cache trace " + file, e);
      }
      try {
        engine.blockCache().startTrace(trace);
      } catch (RuntimeException e) {
        closeQuietlyAndDelete(trace);
        throw e;
      }
    } finally {
      calls.exit();
    }
  }

  @Override
  public long endBlockCacheTrace() {
    calls.enter();
    try {
      BlockCacheTrace trace = engine.blockCache().stopTrace();
      if (trace == null) {
        throw new IllegalStateException("no block cache trace is being recorded in " + engine.dir());
      }
      closeTrace(trace);
      return trace.records();
    } finally {
      calls.exit();
    }
  }

  private static void closeTrace(BlockCacheTrace trace) {
    try {
      trace.close();
    } catch (IOException e) {
      throw new CairnIOException("write block cache trace " + trace.path(), e);
    }
  }

  /** A trace that never started: its file, header only, goes. */
  private static void closeQuietlyAndDelete(BlockCacheTrace trace) {
    try {
      trace.close();
      Files.deleteIfExists(trace.path());
    } catch (IOException e) {
      // The trace never recorded anything; the caller's exception says why it did not start.
    }
  }

  /** The engine context (tests). */
  public Engine engine() {
    return engine;
  }

  /** The compactions of a database open for writes (tests). */
  Compactions compactions() {
    return writable("compactions").compactions();
  }
}

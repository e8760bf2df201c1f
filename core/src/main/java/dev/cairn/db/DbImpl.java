package dev.cairn.db;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.Entry;
import dev.cairn.Options;
import dev.cairn.ReadOptions;
import dev.cairn.Snapshot;
import dev.cairn.Stats;
import dev.cairn.VerifyProgress;
import dev.cairn.WriteBatch;
import dev.cairn.WriteOptions;
import dev.cairn.db.base.Engine;
import dev.cairn.db.compact.Compactions;
import dev.cairn.db.read.ReadState;
import dev.cairn.db.read.Reads;
import dev.cairn.db.read.SnapshotImpl;
import dev.cairn.db.write.WriteQueue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine's API facade: implements {@link Cairn} by checking arguments, counting each call in
 * flight ({@link InFlightCalls}, which close waits for) and handing the work to the part that owns
 * it. It takes no lock and holds no engine state of its own (docs/architecture.md, "Threads and
 * locking"):
 *
 * <ul>
 *   <li>{@link WriteQueue}: writes (group commit) and flush;
 *   <li>{@link Reads}: pinning what a read sees ({@link ReadState} then reads unlocked), snapshots,
 *       stats;
 *   <li>{@link Compactions}: manual compaction;
 *   <li>{@link Lifecycle}: open, recovery and close.
 * </ul>
 */
public final class DbImpl implements Cairn {
  private final Lifecycle lifecycle;
  private final Engine engine;
  /** Public calls running now; close() waits for them (see InFlightCalls). */
  private final InFlightCalls calls;
  private final WriteQueue writes;
  private final Reads reads;
  private final Compactions compactions;

  private DbImpl(Lifecycle lifecycle) {
    this.lifecycle = lifecycle;
    this.engine = lifecycle.engine();
    this.calls = lifecycle.calls();
    this.writes = lifecycle.writes();
    this.compactions = lifecycle.compactions();
    this.reads = new Reads(engine, lifecycle.memTables(), lifecycle.pointReads(), lifecycle.scans());
  }

  /** See {@link Cairn#open}. */
  public static Cairn open(Path dir, Options options) {
    if (dir == null) {
      throw new IllegalArgumentException("database directory must not be null");
    }
    if (options == null) {
      throw new IllegalArgumentException("options must not be null");
    }
    return new DbImpl(Lifecycle.open(dir, options));
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
    return engine.options().syncWrites() ? WriteOptions.SYNC : WriteOptions.NO_SYNC;
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
    try {
      return reads.get(key, SnapshotImpl.sequenceFor(readOptions.snapshot(), this, -1), readOptions.fillCache());
    } finally {
      engine.counters().getLatency().recordSince(start);
      calls.exit();
    }
  }

  /** Pins the memtables and the current version for one read or iterator. */
  private ReadState pinReadState(Snapshot snapshot) {
    return reads.pin(SnapshotImpl.sequenceFor(snapshot, this, -1));
  }

  @Override
  public Snapshot snapshot() {
    calls.enter();
    try {
      return reads.snapshot(this);
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
      return new InFlightIterator(pinReadState(readOptions.snapshot()).iterator(readOptions), calls);
    } finally {
      calls.exit();
    }
  }

  @Override
  public List<Entry> scan(byte[] from, byte[] toExclusive, int limit) {
    return scan(this, engine, from, toExclusive, limit);
  }

  /** {@link Cairn#scan} through {@code db}'s iterator, timed in {@code engine}'s counters. */
  static List<Entry> scan(Cairn db, Engine engine, byte[] from, byte[] toExclusive, int limit) {
    if (from == null) {
      throw new IllegalArgumentException("scan start key must not be null (use an empty array for the first key)");
    }
    if (limit < 0) {
      throw new IllegalArgumentException("scan limit must not be negative: " + limit);
    }
    long start = System.nanoTime();
    List<Entry> out = new ArrayList<>(Math.min(limit, 1024));
    try (CairnIterator it = db.iterator(ReadOptions.DEFAULT.withBounds(from, toExclusive))) {
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
    try {
      return lifecycle.stats();
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
    try (ReadState state = pinReadState(null)) {
      return state.verifyTables(progress);
    } finally {
      calls.exit();
    }
  }

  /** The number of the active memtable's log (tests). */
  long logNumber() {
    return lifecycle.memTables().logNumber();
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
    lifecycle.close();
  }

  /** The engine context (tests). */
  public Engine engine() {
    return engine;
  }

  /** The compactions (tests). */
  Compactions compactions() {
    return compactions;
  }
}

package dev.cairn.db;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.Snapshot;
import dev.cairn.Stats;
import dev.cairn.WriteBatch;
import dev.cairn.WriteOptions;
import dev.cairn.db.base.Engine;
import dev.cairn.db.base.SharedPools;
import dev.cairn.db.compact.Compactions;
import dev.cairn.db.read.ReadState;
import dev.cairn.db.read.Reads;
import dev.cairn.db.write.WriteQueue;
import java.nio.file.Path;

/**
 * A database open for writes: its reads come from the live memtables and the current version,
 * and it takes writes, flushes and manual compactions. {@link Lifecycle} opens and closes it.
 */
final class LiveDatabase implements OpenDatabase {
  private final Lifecycle lifecycle;
  private final Engine engine;
  private final WriteQueue writes;
  private final Reads reads;
  private final Compactions compactions;

  private LiveDatabase(Lifecycle lifecycle) {
    this.lifecycle = lifecycle;
    this.engine = lifecycle.engine();
    this.writes = lifecycle.writes();
    this.compactions = lifecycle.compactions();
    this.reads = new Reads(engine, lifecycle.memTables(), lifecycle.pointReads(), lifecycle.scans());
  }

  /** Locks {@code dir}, recovers and starts the background work ({@link Lifecycle#open}). */
  static LiveDatabase open(Path dir, Options options, SharedPools shared) {
    return new LiveDatabase(Lifecycle.open(dir, options, shared));
  }

  @Override
  public Engine engine() {
    return engine;
  }

  @Override
  public InFlightCalls calls() {
    return lifecycle.calls();
  }

  @Override
  public long latestSequence() {
    return -1;
  }

  @Override
  public byte[] get(byte[] key, long sequence, boolean fillCache) {
    return reads.get(key, sequence, fillCache);
  }

  @Override
  public ReadState pin(long sequence) {
    return reads.pin(sequence);
  }

  @Override
  public Snapshot snapshot(Cairn owner) {
    return reads.snapshot(owner);
  }

  @Override
  public Stats stats() {
    return lifecycle.stats();
  }

  @Override
  public RuntimeException failure(RuntimeException e) {
    return e;
  }

  @Override
  public void close() {
    lifecycle.close();
  }

  void write(WriteBatch batch, WriteOptions options) {
    writes.write(batch, options);
  }

  void flush() {
    writes.flush();
  }

  /** Makes a checkpoint in {@code dir} ({@link Checkpoint}). */
  void checkpoint(Path dir) {
    new Checkpoint(engine).create(dir, writes::flush);
  }

  /** Flushes, then compacts the levels' files that overlap [from, to] (null: unbounded). */
  void compactRange(byte[] from, byte[] to) {
    writes.flush();
    compactions.compactRangeManually(from, to);
  }

  Compactions compactions() {
    return compactions;
  }

  /** The number of the active memtable's log (tests). */
  long logNumber() {
    return lifecycle.memTables().logNumber();
  }
}

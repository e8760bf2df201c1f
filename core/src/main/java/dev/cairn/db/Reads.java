package dev.cairn.db;

import dev.cairn.Cairn;
import dev.cairn.Snapshot;
import dev.cairn.Stats;
import dev.cairn.memtable.MemTable;
import dev.cairn.version.Version;
import dev.cairn.version.VersionSet;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The read side's moments under the engine mutex: pinning what one read sees (the memtables and
 * a referenced version, at one sequence), registering a snapshot at the last published sequence,
 * and taking the figures for {@link Stats}. The reads themselves run unlocked ({@link ReadState}).
 */
final class Reads {
  private final Engine engine;
  private final VersionSet versions;
  private final ReentrantLock mutex;
  private final MemTables memTables;
  private final Compactions compactions;

  Reads(Engine engine, MemTables memTables, Compactions compactions) {
    this.engine = engine;
    this.versions = engine.versions();
    this.mutex = engine.mutex();
    this.memTables = memTables;
    this.compactions = compactions;
  }

  /**
   * Pins the memtables and the current version for one read or iterator, at {@code sequence}
   * (below 0: the last published sequence).
   */
  ReadState pin(long sequence) {
    mutex.lock();
    try {
      Version v = versions.current();
      v.ref();
      List<MemTable> memtables = memTables.newestFirst();
      return new ReadState(engine.tableCache(), compactions.buffer().reads(), memtables, v,
          sequence >= 0 ? sequence : versions.lastSequence());
    } finally {
      mutex.unlock();
    }
  }

  /** A snapshot of {@code owner} at the last published sequence. */
  Snapshot snapshot(Cairn owner) {
    mutex.lock();
    try {
      return new SnapshotImpl(owner, engine.snapshots(), versions.lastSequence());
    } finally {
      mutex.unlock();
    }
  }

  Stats stats() {
    mutex.lock();
    try {
      return StatsBuilder.build(engine, compactions, versions.current(), memTables.activeBytes(),
          memTables.immutableCount());
    } finally {
      mutex.unlock();
    }
  }
}

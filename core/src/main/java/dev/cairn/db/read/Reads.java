package dev.cairn.db.read;

import dev.cairn.Cairn;
import dev.cairn.Snapshot;
import dev.cairn.db.base.CachedVersions;
import dev.cairn.db.base.Engine;
import dev.cairn.db.write.MemTables;
import dev.cairn.memtable.MemTable;
import dev.cairn.version.Version;
import dev.cairn.version.VersionSet;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The read side's entry points: pinning what one read sees (the memtables and a referenced
 * version, at one sequence; without the engine mutex, see {@link #pin}), registering a snapshot
 * at the last published sequence and taking the figures for {@link Stats} (both under the
 * mutex). The reads themselves run unlocked ({@link ReadState}).
 */
public final class Reads {
  private final Engine engine;
  private final VersionSet versions;
  private final ReentrantLock mutex;
  private final MemTables memTables;
  private final CachedVersions cachedVersions;
  /** Where point reads ended, by level, and what their device reads cost. */
  private final PointReads pointReads;
  /** The level files iterators may read from buffer files. */
  private final BufferScans scans;

  public Reads(Engine engine, MemTables memTables, PointReads pointReads, BufferScans scans) {
    this.pointReads = pointReads;
    this.scans = scans;
    this.engine = engine;
    this.versions = engine.versions();
    this.mutex = engine.mutex();
    this.memTables = memTables;
    this.cachedVersions = engine.cachedVersions();
  }

  /**
   * Pins the memtables and the current version for one read or iterator, at {@code sequence}
   * (below 0: the last published sequence), without the engine mutex (docs/architecture.md,
   * "Pinning a read"). The order is what makes it safe, each step a volatile read:
   *
   * <ol>
   *   <li>the memtables: a memtable leaves this list only after the flush that wrote it has
   *       installed its version, so a memtable missing from the list read here is in every
   *       version read after it; a memtable switched out stays in the list, as immutable;
   *   <li>the version, referenced with {@link VersionSet#refCurrent()}, which retries when it
   *       meets a version released between the read of {@code current} and the reference;
   *   <li>the sequence, last: every write acknowledged before the read began is at or below it
   *       and in the memtables or the version pinned. Read first, it could be older than the
   *       version: a compaction installed between the two may have dropped entries it sees (an
   *       entry shadowed by a newer one is kept only for the snapshots alive then, and a read's
   *       own sequence is not one), and the read then found neither the dropped entry nor, above
   *       its sequence, the newer one: a key present throughout read as absent
   *       ({@code CachedVersionsTest}, readers beside {@code compactRange}; RocksDB takes its
   *       sequence after its super version for this reason). Writes published after the pin into
   *       a memtable switched in after it are not seen: the read is ordered before them.
   * </ol>
   *
   * A flush installs its version before it removes the memtable, so the memtables read first may
   * include one whose table the version holds: those are left out ({@link #unflushed}), so that
   * no entry is read twice (a merge operand read twice would be applied twice).
   */
  public ReadState pin(long sequence) {
    List<MemTable> pinned = memTables.newestFirst();
    Version v = versions.refCurrent();
    List<MemTable> memtables = unflushed(pinned, v);
    long at = sequenceAfterPinning(sequence);
    return new ReadState(engine.tableCache(), pointReads, scans, engine.merger(), memtables, v, at);
  }

  /**
   * The value of {@code key} at {@code sequence} (below 0: the last published sequence), or null:
   * pinned in {@link #pin}'s order, but with the version a reference this thread's stripe keeps
   * ({@link CachedVersions}) instead of one taken and dropped by this read, and no state object.
   */
  public byte[] get(byte[] key, long sequence, boolean fillCache) {
    List<MemTable> pinned = memTables.newestFirst();
    Version v = cachedVersions.acquire();
    try {
      List<MemTable> memtables = unflushed(pinned, v);
      long at = sequenceAfterPinning(sequence);
      return ReadState.get(engine.tableCache(), pointReads, engine.merger(), memtables, v, at, key, fillCache);
    } finally {
      cachedVersions.release(v);
    }
  }

  /**
   * {@code memtables} without those flushed into {@code v}: the oldest ones, if any (flushes run
   * oldest first). The list itself when none is, as almost always.
   */
  static List<MemTable> unflushed(List<MemTable> memtables, Version v) {
    int n = memtables.size();
    while (n > 0 && memtables.get(n - 1).isFlushedInto(v)) {
      n--;
    }
    return n == memtables.size() ? memtables : memtables.subList(0, n);
  }

  /**
   * A read's sequence: {@code requested}, or below 0 the last published one. Called only after the
   * memtables and the version are pinned, the last step of {@link #pin}'s order.
   */
  private long sequenceAfterPinning(long requested) {
    return requested >= 0 ? requested : versions.lastSequence();
  }

  /** A snapshot of {@code owner} at the last published sequence. */
  public Snapshot snapshot(Cairn owner) {
    mutex.lock();
    try {
      while (engine.snapshots().isHeld()) {
        engine.backgroundChanged().awaitUninterruptibly(); // a filtered compaction's install (SnapshotList.hold)
      }
      return new SnapshotImpl(owner, engine.snapshots(), versions.lastSequence());
    } finally {
      mutex.unlock();
    }
  }
}

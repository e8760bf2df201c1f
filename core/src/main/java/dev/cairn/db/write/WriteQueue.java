package dev.cairn.db.write;

import dev.cairn.wal.WriteBatchRecords;
import dev.cairn.CairnException;
import dev.cairn.CairnIOException;
import dev.cairn.WriteBatch;
import dev.cairn.WriteOptions;
import dev.cairn.db.base.Engine;
import dev.cairn.db.base.EngineCounters;
import dev.cairn.db.base.EngineStatus;
import dev.cairn.fs.FileNames;
import dev.cairn.memtable.MemTable;
import dev.cairn.version.VersionSet;
import dev.cairn.wal.LogWriter;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The writer queue and group commit (LevelDB's): each write enqueues a {@link Writer} under the
 * engine mutex and waits for its turn; the writer at the head (the leader) makes room in the
 * {@link MemTables}, merges the batches queued behind it into one record ({@link GroupBatch}),
 * appends it to the WAL and inserts it into the memtable with the mutex released, publishes the
 * new last sequence and wakes the group. Only the leader may switch the memtable or the log, so
 * the unlocked section is safe. {@link #flush()} takes a turn in the same queue.
 *
 * <p>Locking: every field below is guarded by the engine mutex.
 */
public final class WriteQueue {
  private final VersionSet versions;
  private final EngineCounters counters;
  private final ReentrantLock mutex;
  private final Condition backgroundChanged;
  private final EngineStatus status;
  private final MemTables memTables;

  // Guarded by the engine mutex.
  private final ArrayDeque<Writer> writers = new ArrayDeque<>();
  /** A leader is appending to the log with the mutex released; close() waits for it. */
  private boolean logWriteInProgress;
  /** The last group's WAL record bytes: what the next leader is charged by the slowdown. Guarded by the mutex. */
  private long lastGroupBytes;

  /** A caller waiting in the group-commit queue. */
  private static final class Writer {
    final WriteBatch batch;
    final boolean sync;
    final Condition turn;
    boolean done;
    RuntimeException error;

    Writer(WriteBatch batch, boolean sync, Condition turn) {
      this.batch = batch;
      this.sync = sync;
      this.turn = turn;
    }
  }

  public WriteQueue(Engine engine, MemTables memTables) {
    this.versions = engine.versions();
    this.counters = engine.counters();
    this.mutex = engine.mutex();
    this.backgroundChanged = engine.backgroundChanged();
    this.status = engine.status();
    this.memTables = memTables;
  }

  /** Commits {@code batch}, alone or in a group; returns once it is in the WAL and the memtable. */
  public void write(WriteBatch batch, WriteOptions writeOptions) {
    if (batch.count() == 0) {
      return;
    }
    long start = System.nanoTime();
    Writer w = new Writer(batch, writeOptions.sync(), mutex.newCondition());
    mutex.lock();
    try {
      writers.addLast(w);
      while (!w.done && writers.peekFirst() != w) {
        w.turn.awaitUninterruptibly();
      }
      if (w.done) {
        if (w.error != null) {
          throw w.error;
        }
        return;
      }
      commitGroupAsLeader(w);
    } finally {
      mutex.unlock();
      counters.putLatency().recordSince(start);
    }
  }

  /**
   * Requires: mutex held, {@code leader} at the head of {@link #writers}. Commits the leader and the
   * writers queued behind it as one WAL record, then wakes them.
   */
  private void commitGroupAsLeader(Writer leader) {
    assert mutex.isHeldByCurrentThread();
    Writer last = leader;
    Throwable error = null;
    try {
      memTables.makeRoomForWrite(false, lastGroupBytes);
      GroupBatch<Writer> group = GroupBatch.collect(writers, leader, w -> w.batch, w -> w.sync);
      last = group.last();
      memTables.makeRoomForGroup(group.batch());
      long firstSequence = versions.lastSequence() + 1;
      byte[] record = WriteBatchRecords.encode(group.batch(), firstSequence);
      appendToLogAndMemTable(record, group.sync());
      versions.setLastSequence(firstSequence + group.batch().count() - 1);
      counters.userBytesWritten().add(group.batch().userBytes());
      lastGroupBytes = record.length;
    } catch (Throwable t) {
      error = t;
    } finally {
      // Always drain the group and pass the turn on, whatever failed: a writer left in the queue
      // would block every later write and flush forever.
      completeGroup(leader, last, error);
    }
    if (error instanceof RuntimeException e) {
      throw e;
    }
    if (error instanceof Error e) {
      throw e;
    }
    if (error != null) {
      throw new CairnIOException("switching to a new write-ahead log", (IOException) error);
    }
  }

  /**
   * Requires: mutex held, caller is the head writer. Appends the record to the WAL and inserts it
   * into the memtable with the mutex released. Any failure once the append has started latches
   * the background error: the log may hold part of the record, and its sequence numbers must never
   * be handed out again.
   */
  private void appendToLogAndMemTable(byte[] record, boolean sync) {
    assert mutex.isHeldByCurrentThread();
    LogWriter currentLog = memTables.log();
    MemTable currentMem = memTables.mem();
    long currentLogNumber = memTables.logNumber();
    logWriteInProgress = true;
    mutex.unlock();
    Throwable failure = null;
    try {
      currentLog.addRecord(record);
      if (sync) {
        currentLog.sync();
      } else {
        // Hand the record to the OS so that it survives a crash of this process.
        currentLog.flush();
      }
      MemTableInserter.insert(record, currentMem);
    } catch (Throwable t) {
      failure = t;
    } finally {
      mutex.lock();
      logWriteInProgress = false;
      memTables.reportToBudget(); // the group's bytes count now, not at the next write
      backgroundChanged.signalAll();
    }
    if (failure != null) {
      CairnIOException e = failure instanceof IOException io
          ? new CairnIOException("appending to the write-ahead log " + FileNames.log(currentLogNumber), io)
          : null;
      status.latch(e != null ? e : failure);
      if (e != null) {
        throw e;
      }
      if (failure instanceof Error err) {
        throw err;
      }
      throw (RuntimeException) failure;
    }
  }

  /** Requires: mutex held. Removes the group from the queue, hands out its outcome, wakes the next. */
  private void completeGroup(Writer leader, Writer last, Throwable error) {
    assert mutex.isHeldByCurrentThread();
    RuntimeException followerError = error == null ? null
        : error instanceof RuntimeException re ? re : new CairnException("group commit failed: " + error, error);
    while (true) {
      Writer w = writers.pollFirst();
      if (w == null) {
        break;
      }
      if (w != leader) {
        w.error = followerError;
        w.done = true;
        w.turn.signal();
      }
      if (w == last) {
        break;
      }
    }
    Writer next = writers.peekFirst();
    if (next != null) {
      next.turn.signal();
    }
  }

  /**
   * Switches the memtable if it holds anything, then waits until the memtables holding the writes
   * made before this call are flushed.
   */
  public void flush() {
    mutex.lock();
    try {
      // Take a turn in the writer queue so that no group commit is between log and memtable.
      Writer w = new Writer(new WriteBatch(), false, mutex.newCondition());
      writers.addLast(w);
      while (writers.peekFirst() != w) {
        w.turn.awaitUninterruptibly();
      }
      try {
        memTables.makeRoomForWrite(true, 0);
      } catch (IOException e) {
        throw new CairnIOException("switching the memtable for a flush", e);
      } finally {
        completeGroup(w, w, null);
      }
      // Wait for the memtables holding writes made before this call, not for ones switched in
      // later by writers that keep going (which could starve this call).
      MemTables.ImmutableMemTable target = memTables.newestImmutable();
      while (target != null && memTables.isWaiting(target)) {
        status.throwIfUnusable();
        backgroundChanged.awaitUninterruptibly();
      }
      status.throwIfUnusable();
    } finally {
      mutex.unlock();
    }
  }

  /** Requires: mutex held. Close: wakes every writer waiting for its turn. */
  public void wakeAll() {
    assert mutex.isHeldByCurrentThread();
    for (Writer w : writers) {
      w.turn.signal();
    }
  }

  /** Requires: mutex held. Whether a leader is appending to the log with the mutex released. */
  public boolean logWriteInProgress() {
    assert mutex.isHeldByCurrentThread();
    return logWriteInProgress;
  }
}

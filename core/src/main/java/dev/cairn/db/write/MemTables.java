package dev.cairn.db.write;

import dev.cairn.Options;
import dev.cairn.WriteBatch;
import dev.cairn.db.base.BackgroundRequests;
import dev.cairn.db.base.Engine;
import dev.cairn.db.base.EngineCounters;
import dev.cairn.db.base.EngineEvents;
import dev.cairn.db.base.EngineStatus;
import dev.cairn.db.base.MemtableBudget;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import dev.cairn.fs.IoTag;
import dev.cairn.memtable.MemTable;
import dev.cairn.util.FixedList;
import dev.cairn.version.Version;
import dev.cairn.version.VersionSet;
import dev.cairn.wal.LogWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The memtables and the write-ahead log: the active memtable and the log that holds its writes,
 * and the immutable memtables waiting to be flushed (oldest first), each with its log. Switches
 * them when the active memtable is full, and applies the write stalls (the L0 slowdown and stop
 * triggers, the cap on immutable memtables) that hold the head writer back while background work
 * catches up.
 *
 * <p>Locking: every field below is guarded by the engine mutex. Only the head writer of the
 * {@link WriteQueue} switches the memtable or the log, so the head writer may append to the log
 * and insert into the memtable it read under the mutex after releasing it.
 */
public final class MemTables {
  /** A memtable smaller than this is not switched for the shared budget's sake. */
  private static final long MIN_BUDGET_FLUSH_BYTES = 64 << 10;
  private static final long BUDGET_WAIT_NANOS = 1_000_000;
  /** A memtable waiting to be flushed, with the WAL that holds its writes. */
  public record ImmutableMemTable(MemTable mem, long logNumber) {}

  private final Path dir;
  private final Options options;
  private final FileSystem fs;
  private final VersionSet versions;
  private final EngineCounters counters;
  private final EngineEvents events;
  private final ReentrantLock mutex;
  private final Condition backgroundChanged;
  private final EngineStatus status;
  private final BackgroundRequests background;

  // Guarded by the engine mutex.
  private MemTable mem;
  private final ArrayDeque<ImmutableMemTable> immutables = new ArrayDeque<>();
  private LogWriter log;
  private long logNumber;
  private final WriteSlowdown slowdown;
  /** The memtable budget shared with other databases, or null. */
  private final MemtableBudget budget;
  /** What this database last told the budget its memtables hold, all and immutable. */
  private long reportedBytes;
  private long reportedImmutableBytes;
  /** Read by other databases' writers: the immutable bytes this database's flushes will free. */
  private volatile long flushableBytes;
  private final java.util.function.LongSupplier beingFlushed;
  /**
   * The memtables a read sees, newest first: republished (under the mutex) whenever the active
   * or the immutable memtables change, read without it ({@link Reads#pin}).
   */
  private volatile List<MemTable> readView = FixedList.empty();

  public MemTables(Engine engine) {
    this.dir = engine.dir();
    this.options = engine.options();
    this.fs = engine.fs();
    this.versions = engine.versions();
    this.counters = engine.counters();
    this.events = engine.events();
    this.mutex = engine.mutex();
    this.backgroundChanged = engine.backgroundChanged();
    this.status = engine.status();
    this.background = engine.background();
    this.slowdown = new WriteSlowdown(options.delayedWriteBytesPerSecond(), options.l0SlowdownTrigger(),
        options.l0StopTrigger());
    this.budget = engine.shared() == null ? null : engine.shared().budget();
    this.beingFlushed = () -> status.hasBackgroundError() || status.isClosing() ? 0 : flushableBytes;
  }

  // ---------------------------------------------------------------- open and close

  /**
   * Requires: mutex held. Open: creates the log that new writes go to and returns its number.
   * The log is kept as soon as it exists, so that a failed open closes it.
   */
  public long createLog() throws IOException {
    assert mutex.isHeldByCurrentThread();
    logNumber = versions.newFileNumber();
    log = new LogWriter(fs.create(dir.resolve(FileNames.log(logNumber)), IoTag.WAL));
    return logNumber;
  }

  /** Requires: mutex held. Open: the recovered state is installed; writes may begin. */
  public void createMemTable() {
    assert mutex.isHeldByCurrentThread();
    mem = new MemTable(logNumber);
    publishReadView();
    if (budget != null) {
      budget.join(beingFlushed);
    }
  }

  /** Requires: mutex held, no writer left. Clean close: syncs and closes the log. */
  public void syncAndCloseLog() throws IOException {
    assert mutex.isHeldByCurrentThread();
    if (log != null) {
      // Close even when the sync fails (a dead device): otherwise the descriptor leaks.
      try {
        log.sync();
      } finally {
        log.close();
      }
    }
  }

  /** Failed open: closes the log if it was created. */
  public void closeLog() throws IOException {
    if (log != null) {
      log.close();
    }
  }

  // ---------------------------------------------------------------- the head writer

  /** Requires: mutex held. The active memtable. */
  MemTable mem() {
    assert mutex.isHeldByCurrentThread();
    return mem;
  }

  /** Requires: mutex held. The log of the active memtable. */
  LogWriter log() {
    assert mutex.isHeldByCurrentThread();
    return log;
  }

  /**
   * The number of the active memtable's log. Requires: mutex held (tests read it without, once
   * the writes they made are done).
   */
  public long logNumber() {
    return logNumber;
  }

  /**
   * Requires: mutex held, caller is the head writer. Waits until the active memtable has room,
   * switching it for a fresh one (and a fresh log) when full, and applying the L0 slowdown and
   * stop triggers. With {@code force} the memtable is switched if it holds anything. The
   * slowdown paces {@code chargedBytes} (the previous group's, {@link WriteSlowdown}).
   */
  void makeRoomForWrite(boolean force, long chargedBytes) throws IOException {
    assert mutex.isHeldByCurrentThread();
    boolean allowDelay = !force;
    // One stop, however many wake-ups it takes, is one line for the operator, with its first cause.
    long stopStart = 0;
    EngineCounters.StallCause stopCause = null;
    boolean interrupted = false;
    int budgetStop = 0;
    try {
      while (true) {
        status.throwIfUnusable();
        reportToBudget();
        Version current = versions.current();
        int l0Files = current.fileCount(0);
        long delay = allowDelay ? slowdown.delayNanos(l0Files, chargedBytes, System.nanoTime()) : 0;
        allowDelay = false; // charged once per group, whatever happens next
        if (delay > 0) {
          // Paced, not stopped: the mutex is released so flushes and compactions install meanwhile.
          long t0 = System.nanoTime();
          mutex.unlock();
          try {
            pause(t0 + delay);
          } finally {
            mutex.lock();
          }
          counters.recordStall(t0, EngineCounters.StallCause.SLOWDOWN);
        } else if (budget != null && budget.shouldFlush() && mem.approximateBytes() >= MIN_BUDGET_FLUSH_BYTES
            && immutables.size() < options.maxImmutableMemtables()) {
          switchMemTable(); // flushed early: the databases' memtables fill the shared budget
          force = false;
        } else if (budget != null && budget.shouldStall()) {
          long t0 = System.nanoTime();
          // Another database's flush frees the memory and signals its own condition, not ours.
          try {
            backgroundChanged.awaitNanos(BUDGET_WAIT_NANOS);
          } catch (InterruptedException e) {
            interrupted = true; // restored on return, as the other stops ignore interrupts
          }
          // Polled each millisecond: one stop, however many polls.
          counters.recordStallTime(t0, EngineCounters.StallCause.MEMTABLE_STOP, budgetStop == 0);
          budgetStop++;
          if (stopCause == null) {
            stopStart = t0;
            stopCause = EngineCounters.StallCause.MEMTABLE_STOP;
          }
        } else if (!force && mem.approximateBytes() < options.memtableBytes()) {
          return;
        } else if (force && mem.isEmpty()) {
          return;
        } else if (immutables.size() >= options.maxImmutableMemtables()) {
          long t0 = System.nanoTime();
          backgroundChanged.awaitUninterruptibly();
          counters.recordStall(t0, EngineCounters.StallCause.MEMTABLE_STOP);
          if (stopCause == null) {
            stopStart = t0;
            stopCause = EngineCounters.StallCause.MEMTABLE_STOP;
          }
        } else if (l0Files >= options.l0StopTrigger()) {
          long t0 = System.nanoTime();
          background.maybeScheduleBackgroundWork();
          backgroundChanged.awaitUninterruptibly();
          counters.recordStall(t0, EngineCounters.StallCause.L0_STOP);
          if (stopCause == null) {
            stopStart = t0;
            stopCause = EngineCounters.StallCause.L0_STOP;
          }
        } else {
          switchMemTable();
          force = false;
        }
      }
    } finally {
      if (stopCause != null) {
        events.stopped(stopCause, System.nanoTime() - stopStart);
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Requires: mutex held, caller is the head writer, {@link #makeRoomForWrite} done. Switches to
   * a fresh memtable (stopping as {@link #makeRoomForWrite} does) when {@code group} would take
   * the active one past {@link MemTable#MAX_BYTES}: a memtable switches at up to 1 GiB and a
   * batch may take another ({@link WriteBatch#MAX_BYTES}), more than one arena holds.
   */
  void makeRoomForGroup(WriteBatch group) throws IOException {
    assert mutex.isHeldByCurrentThread();
    if (!mem.hasRoomFor(MemTable.bytesToAdd(group.encodedSize(), group.count()))) {
      makeRoomForWrite(true, 0);
    }
  }

  /**
   * Parks until {@code deadlineNanos}: to tens of microseconds, where {@code Thread.sleep} rounds
   * a 1.6 ms pace up to 2 ms (measured: a load's write p99 went from 1.1 to 2.1 ms). An interrupt
   * ends the pause early and stays set.
   */
  private static void pause(long deadlineNanos) {
    for (long left = deadlineNanos - System.nanoTime(); left > 0; left = deadlineNanos - System.nanoTime()) {
      LockSupport.parkNanos(left);
      if (Thread.currentThread().isInterrupted()) {
        return;
      }
    }
  }

  /** Requires: mutex held. */
  private void switchMemTable() throws IOException {
    assert mutex.isHeldByCurrentThread();
    long newLogNumber = versions.newFileNumber();
    LogWriter newLog;
    try {
      newLog = new LogWriter(fs.create(dir.resolve(FileNames.log(newLogNumber)), IoTag.WAL));
    } catch (IOException e) {
      status.latch(e);
      throw e;
    }
    // Make the new log's directory entry durable before any write in it is acknowledged: a
    // synced write is only as durable as the name of the file that holds it, and without this
    // a power loss before the next table's directory sync drops the whole log.
    try {
      fs.syncDirectory(dir);
    } catch (IOException e) {
      status.latch(e);
      newLog.close();
      throw e;
    }
    // The old log holds the memtable being retired; sync it so that an older log is never torn
    // behind a newer one (recovery then only meets a torn tail in the newest log).
    try {
      log.sync();
      log.close();
    } catch (IOException e) {
      status.latch(e);
      newLog.close();
      throw e;
    }
    immutables.addLast(new ImmutableMemTable(mem, logNumber));
    log = newLog;
    logNumber = newLogNumber;
    mem = new MemTable(logNumber);
    publishReadView();
    background.maybeScheduleBackgroundWork();
  }

  // ---------------------------------------------------------------- readers and flushes

  /**
   * The memtables a read sees, newest first; safe without the mutex. Every write up to the last
   * published sequence is in them or, once flushed and removed, in the current version (the
   * flush installs its version before it removes the memtable; see {@link Reads#pin}).
   */
  public List<MemTable> newestFirst() {
    return readView;
  }

  /** Requires: mutex held. */
  private void publishReadView() {
    assert mutex.isHeldByCurrentThread();
    List<MemTable> memtables = new ArrayList<>(1 + immutables.size());
    memtables.add(mem);
    immutables.descendingIterator().forEachRemaining(m -> memtables.add(m.mem()));
    readView = FixedList.copyOf(memtables); // one list class for the read path (FixedList)
  }

  /** Requires: mutex held. The active memtable's approximate size. */
  public long activeBytes() {
    assert mutex.isHeldByCurrentThread();
    return mem.approximateBytes();
  }

  /** Requires: mutex held. How many immutable memtables wait for a flush. */
  public int immutableCount() {
    assert mutex.isHeldByCurrentThread();
    return immutables.size();
  }

  /** Requires: mutex held. Whether any immutable memtable waits for a flush. */
  public boolean hasImmutable() {
    assert mutex.isHeldByCurrentThread();
    return !immutables.isEmpty();
  }

  /** Requires: mutex held. The immutable memtable switched out last, or null. */
  ImmutableMemTable newestImmutable() {
    assert mutex.isHeldByCurrentThread();
    return immutables.peekLast();
  }

  /** Requires: mutex held. The immutable memtable to flush next, or null. */
  public ImmutableMemTable oldestImmutable() {
    assert mutex.isHeldByCurrentThread();
    return immutables.peekFirst();
  }

  /** Requires: mutex held. Whether {@code m} still waits for its flush. */
  boolean isWaiting(ImmutableMemTable m) {
    assert mutex.isHeldByCurrentThread();
    return immutables.contains(m);
  }

  /**
   * Requires: mutex held. The oldest log still needed for recovery once the oldest immutable
   * memtable is flushed: the next unflushed memtable's, or the active one's.
   */
  public long logNumberAfterOldest() {
    assert mutex.isHeldByCurrentThread();
    ImmutableMemTable next = immutables.stream().skip(1).findFirst().orElse(null);
    return next != null ? next.logNumber() : logNumber;
  }

  /**
   * Requires: mutex held. The oldest immutable memtable is flushed and its version installed (in
   * that order: a read that no longer sees the memtable must find its table in the version).
   */
  public void removeOldest() {
    assert mutex.isHeldByCurrentThread();
    immutables.pollFirst();
    publishReadView();
    reportToBudget();
  }

  /** Requires: mutex held. Tells the shared budget, if any, what the memtables hold now. */
  void reportToBudget() {
    if (budget == null) {
      return;
    }
    long immutable = 0;
    for (ImmutableMemTable imm : immutables) {
      immutable += imm.mem().approximateBytes();
    }
    long all = immutable + (mem == null ? 0 : mem.approximateBytes());
    budget.report(all - reportedBytes, immutable - reportedImmutableBytes);
    reportedBytes = all;
    reportedImmutableBytes = immutable;
    flushableBytes = immutable;
  }

  /** Requires: mutex held. Close: this database's memtables leave the shared budget. */
  public void leaveBudget() {
    if (budget != null) {
      budget.leave(beingFlushed);
      budget.report(-reportedBytes, -reportedImmutableBytes);
      reportedBytes = 0;
      reportedImmutableBytes = 0;
      flushableBytes = 0;
    }
  }
}

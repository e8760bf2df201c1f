package dev.cairn.db.base;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Memtable bytes across the databases that share one budget (RocksDB's WriteBufferManager): each
 * database reports what its memtables hold, active and immutable ({@link #report}). When the
 * active memtables hold seven eighths of it, a database that writes switches its active memtable
 * so that it is flushed ({@link #shouldFlush}); over the budget, its writers wait while immutable
 * memtables anywhere are being flushed to bring the total back under ({@link #shouldStall}). An idle database's active memtable is not flushed for another's sake: it stays until
 * that database writes, flushes or closes.
 */
public final class MemtableBudget {
  private final long limitBytes;
  private final AtomicLong used = new AtomicLong();
  private final AtomicLong immutable = new AtomicLong();
  /** Per database: the immutable bytes its flushes will free (0 for one that failed or closes). */
  private final List<LongSupplier> beingFlushed = new CopyOnWriteArrayList<>();

  public MemtableBudget(long limitBytes) {
    if (limitBytes <= 0) {
      throw new IllegalArgumentException("memtable budget must be positive: " + limitBytes);
    }
    this.limitBytes = limitBytes;
  }

  /**
   * One database's memtables changed: {@code usedDelta} bytes more in all of them, {@code
   * immutableDelta} more in those being flushed (negative for less).
   */
  public void report(long usedDelta, long immutableDelta) {
    used.addAndGet(usedDelta);
    immutable.addAndGet(immutableDelta);
  }

  /** Whether the databases' memtables hold the budget or more. */
  public boolean exceeded() {
    return used.get() >= limitBytes;
  }

  /**
   * Whether a database that writes should switch its active memtable for a flush: the active
   * memtables alone hold seven eighths of the budget (RocksDB's rule: counting the ones being
   * flushed too would switch a fresh memtable at every write until those flushes end).
   */
  public boolean shouldFlush() {
    return used.get() - immutable.get() >= limitBytes - limitBytes / 8;
  }

  /**
   * Whether a writer over the budget should wait: some database's flushes will free memory. A
   * database whose flushes stopped (a background error) frees nothing, so its immutable memtables
   * make no one wait, or its failure would stop every writer of the budget.
   */
  public boolean shouldStall() {
    if (!exceeded()) {
      return false;
    }
    for (LongSupplier flushing : beingFlushed) {
      if (flushing.getAsLong() > 0) {
        return true;
      }
    }
    return false;
  }

  /** A database takes part: {@code bytesBeingFlushed} is what its running flushes will free. */
  public void join(LongSupplier bytesBeingFlushed) {
    beingFlushed.add(bytesBeingFlushed);
  }

  /** The database {@link #join} named leaves (closed). */
  public void leave(LongSupplier bytesBeingFlushed) {
    beingFlushed.remove(bytesBeingFlushed);
  }

  public long usedBytes() {
    return used.get();
  }

  public long limitBytes() {
    return limitBytes;
  }
}

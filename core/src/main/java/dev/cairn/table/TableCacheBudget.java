package dev.cairn.table;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bounds a {@link TableCache} keeps its tables within: most tables (open files) and most bytes
 * of index and filter they pin ({@link TableReader#pinnedBytes}). A database has its own, or
 * shares one with the other databases of a process ({@code SharedResources}), so that dozens of
 * databases stay within one process's open files and heap: each cache counts its tables into the
 * budget and evicts its own while the budget as a whole is over.
 *
 * <p>Thread-safe: the counts are atomic. With a shared budget two caches may insert at once and
 * pass it together by a table each before either evicts; the next insert brings it back.
 */
public final class TableCacheBudget {
  private final int maxFiles;
  private final long maxBytes;
  private final boolean shared;
  private final AtomicInteger files = new AtomicInteger();
  private final AtomicLong bytes = new AtomicLong();
  /** Set once a bound has evicted a table that a version would keep ({@link #keepsAll}). */
  private volatile boolean boundReached;

  private TableCacheBudget(int maxFiles, long maxBytes, boolean shared) {
    if (maxFiles < 1) {
      throw new IllegalArgumentException("a table cache keeps at least one table: " + maxFiles);
    }
    if (maxBytes < 0) {
      throw new IllegalArgumentException("table cache bytes must be >= 0 (0: no byte bound): " + maxBytes);
    }
    this.maxFiles = maxFiles;
    this.maxBytes = maxBytes;
    this.shared = shared;
  }

  /** One database's bounds; {@code maxBytes} 0 for no byte bound. */
  public static TableCacheBudget forOneDatabase(int maxFiles, long maxBytes) {
    return new TableCacheBudget(maxFiles, maxBytes, false);
  }

  /** Bounds the tables of every database that uses them; {@code maxBytes} 0 for no byte bound. */
  public static TableCacheBudget shared(int maxFiles, long maxBytes) {
    return new TableCacheBudget(maxFiles, maxBytes, true);
  }

  public int maxFiles() {
    return maxFiles;
  }

  /** Most bytes of index and filter; 0: no byte bound. */
  public long maxBytes() {
    return maxBytes;
  }

  /** Tables kept now, over every cache that counts into this budget. */
  public int files() {
    return files.get();
  }

  /** Bytes of index and filter the kept tables pin now, over every cache. */
  public long bytes() {
    return bytes.get();
  }

  void added(long pinnedBytes) {
    files.incrementAndGet();
    bytes.addAndGet(pinnedBytes);
  }

  void removed(long pinnedBytes) {
    files.decrementAndGet();
    bytes.addAndGet(-pinnedBytes);
  }

  /** Whether the kept tables pass a bound. */
  boolean over() {
    return files.get() > maxFiles || (maxBytes > 0 && bytes.get() > maxBytes);
  }

  /**
   * A cache evicted a table for this budget. An eviction within the count of a database's own
   * budget is the byte bound's; any eviction of a shared budget may be the other databases' tables
   * crowding this one's. Either way the tables no longer all fit, and versions stop keeping them.
   */
  void evicted() {
    if (shared || files.get() <= maxFiles) {
      boundReached = true;
    }
  }

  /**
   * Whether a tree of {@code treeFiles} tables fits, so that a version may keep a handle on each
   * of its tables (docs/architecture.md, "A version keeps its tables open"): within the count, and
   * no eviction for the bytes (or, shared, for the other databases) yet. A tree that outgrew the
   * budget stops being kept from then on: its reads acquire per read and the bounds hold.
   */
  boolean keepsAll(int treeFiles) {
    return treeFiles <= maxFiles && !boundReached;
  }
}

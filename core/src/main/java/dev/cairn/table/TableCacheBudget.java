package dev.cairn.table;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bounds a {@link TableCache} keeps its tables within: most tables (open files) and most bytes
 * of index and filter they pin ({@link TableReader#pinnedBytes}). A database has its own, or
 * shares one with the other databases of a process ({@code SharedResources}), so that dozens of
 * databases stay within one process's open files and heap: each cache counts its tables into the
 * budget; one that inserts past it takes room from the cache that keeps the most of the bound
 * passed while that one keeps more ({@link #makeRoom}), then evicts its own, so that a database that fills the
 * budget and then only reads cannot starve one that comes later.
 *
 * <p>Invariant, whenever no insert or eviction is under way: {@link #files} is the number of
 * entries of the caches counting into the budget and {@link #bytes} the sum of their {@link
 * TableReader#pinnedBytes}; each cache adds and removes under its own lock ({@code
 * TableCache.forget}), exactly once an entry.
 *
 * <p>Thread-safe: the counts are atomic and the caches a list copied on write. Two caches may
 * insert at once and pass the budget together by a table each before either evicts; the next
 * insert brings it back.
 */
public final class TableCacheBudget {
  private final int maxFiles;
  private final long maxBytes;
  private final boolean shared;
  private final AtomicInteger files = new AtomicInteger();
  private final AtomicLong bytes = new AtomicLong();
  /** Set once a bound has evicted a table that a version would keep ({@link #keepsAll}). */
  private volatile boolean boundReached;
  /** The caches counting into a shared budget ({@link #makeRoom}); empty for one database's. */
  private final List<TableCache> caches = new CopyOnWriteArrayList<>();

  /** {@link #processWide}: created by the first database that asks. */
  private static volatile TableCacheBudget processWide;

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

  /**
   * The one budget of every database of this process that leaves its bounds to the engine and
   * shares no {@code SharedResources}: bounds derived from the process hold for the process, not
   * for each database (four databases opened alone would otherwise keep the whole open-file limit
   * between them). Made with the first caller's bounds, which every caller derives alike.
   */
  public static TableCacheBudget processWide(int maxFiles, long maxBytes) {
    TableCacheBudget b = processWide;
    if (b == null) {
      synchronized (TableCacheBudget.class) {
        if (processWide == null) {
          processWide = shared(maxFiles, maxBytes);
        }
        b = processWide;
      }
    }
    return b;
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
    int filesLeft = files.decrementAndGet();
    long bytesLeft = bytes.addAndGet(-pinnedBytes);
    // The kept tables only fall here, so here is where the latch is cleared (not on the reads
    // that ask keepsAll): the tree shrank, or the databases that crowded it closed.
    if (boundReached && filesLeft <= maxFiles / 4 * 3 && (maxBytes == 0 || bytesLeft <= maxBytes / 4 * 3)) {
      boundReached = false;
    }
  }

  /** Whether the kept tables pass a bound. */
  boolean over() {
    return files.get() > maxFiles || overBytes();
  }

  /**
   * A cache evicted a table for this budget. An eviction within the count is the byte bound's;
   * one over the count, while other caches share the budget, may be their tables crowding this
   * one's. Either way the tables no longer all fit, and versions stop keeping them. A cache alone
   * in its budget evicting over the count is a tree over it, which {@link #keepsAll}'s count
   * already tells (and a compaction's inputs and outputs pass it for a moment in a tree that fits).
   */
  void evicted() {
    if (!boundReached && (files.get() <= maxFiles || caches.size() > 1)) {
      boundReached = true; // written once: every point read of every database reads it
    }
  }

  /**
   * Whether a tree of {@code treeFiles} tables fits, so that a version may keep a handle on each
   * of its tables (docs/architecture.md, "A version keeps its tables open"): within the count, and
   * no eviction for the bytes (or, shared, for the other databases) since the kept tables last
   * fell to three quarters of both bounds. A tree that outgrew the budget is not kept while it
   * stays near it: its reads acquire per read, and the bounds hold to within the handles that
   * versions installed before took (kept until each version is released).
   */
  boolean keepsAll(int treeFiles) {
    return treeFiles <= maxFiles && !boundReached;
  }

  /** Whether several caches (databases) may count into this budget. */
  public boolean isShared() {
    return shared;
  }

  /** A cache counting into this budget starts (shared budgets only: one database's is its own). */
  void register(TableCache cache) {
    if (shared) {
      caches.add(cache);
    }
  }

  /** A cache counting into this budget closed. */
  void deregister(TableCache cache) {
    caches.remove(cache);
  }

  /**
   * While the budget is over after {@code asker} inserted, takes tables from the cache that keeps
   * the largest share of the bound passed (tables for the count, pinned bytes for the byte bound),
   * as long as that one keeps more of it than {@code asker} (which then evicts its own): each
   * database's share tends to an equal one under pressure, and under the byte bound a database of
   * many small tables is not drained for one of few large ones. The caches are scanned once per
   * cache chosen, not per table shed. Called with no cache's lock held; takes one cache's at a
   * time.
   */
  void makeRoom(TableCache asker) {
    while (over()) {
      boolean byBytes = overBytes();
      TableCache largest = null;
      for (TableCache c : caches) {
        if (c != asker && (largest == null || share(c, byBytes) > share(largest, byBytes))) {
          largest = c;
        }
      }
      int shed = 0;
      while (largest != null && over() && overBytes() == byBytes
          && share(largest, byBytes) > share(asker, byBytes) && largest.shedOne()) {
        shed++;
      }
      if (shed == 0) {
        return;
      }
    }
  }

  private boolean overBytes() {
    return maxBytes > 0 && bytes.get() > maxBytes;
  }

  /** What {@code cache} keeps of the bound that is passed: its pinned bytes, or its tables. */
  private static long share(TableCache cache, boolean byBytes) {
    return byBytes ? cache.cachedPinnedBytes() : cache.cachedTables();
  }
}

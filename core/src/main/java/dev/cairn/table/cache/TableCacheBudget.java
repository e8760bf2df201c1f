package dev.cairn.table.cache;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bounds a {@link TableCache} keeps its tables within: most open files, and most bytes of
 * index and filter the kept tables pin ({@code TableReader.pinnedBytes}). A database has its own,
 * or shares one with the other databases of a process ({@code SharedResources}), so that dozens
 * of databases stay within one process's open files and heap.
 *
 * <p>With a byte bound (every database's: the engine derives one when the options leave it
 * unset), the two are kept apart: the bytes bound the tables kept, decoded, and the count bounds
 * their open descriptors ({@link OpenFiles}), which close under it while their tables stay kept
 * and open again on their next read. A tree of more tables than the process may hold open then
 * pays an open on a read of a table whose file was closed, not a footer, an index and a filter
 * read and decoded. Without a byte bound ({@code maxBytes} 0), the count bounds the tables kept.
 *
 * <p>Each cache counts its tables into the budget; one that inserts past the bound on kept tables
 * takes room from the cache that keeps the most of it while that one keeps more ({@link
 * #makeRoom}), then evicts its own, so that a database that fills the budget and then only reads
 * cannot starve one that comes later. The open descriptors are one pool over every cache, the
 * files that opened longest ago closing first.
 *
 * <p>Invariant, whenever no insert or eviction is under way: {@link #files} is the number of
 * entries of the caches counting into the budget and {@link #bytes} the sum of their {@code
 * TableReader.pinnedBytes}; each cache adds and removes under its own lock ({@code
 * TableCache.forget}), exactly once an entry.
 *
 * <p>Thread-safe: the counts are atomic and the caches a list copied on write. Two caches may
 * insert at once and pass the budget together by a table each before either evicts; the next
 * insert brings it back.
 */
public final class TableCacheBudget {
  private final int maxFiles;
  private final long maxBytes;
  /**
   * Whether a byte bound is set: the bytes then bound the tables kept and the count their open
   * descriptors; without, the count bounds the tables kept. Every choice below follows it.
   */
  private final boolean byBytes;
  private final boolean shared;
  private final AtomicInteger files = new AtomicInteger();
  private final AtomicLong bytes = new AtomicLong();
  /** The open descriptors of the tables, within {@code maxFiles}. */
  private final OpenFiles openFiles;
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
    this.byBytes = maxBytes > 0;
    this.shared = shared;
    this.openFiles = new OpenFiles(maxFiles);
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

  /** Most open files: with a byte bound, the tables' descriptors; without, the tables kept. */
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

  /** The tables' open descriptors, over every cache that counts into this budget. */
  OpenFiles openFiles() {
    return openFiles;
  }

  /**
   * Table files open now, over every cache that counts into this budget (without a byte bound,
   * the tables kept: each holds its file).
   */
  public int openFileCount() {
    return byBytes ? openFiles.count() : files.get();
  }

  /** Table files opened again after the open-file bound closed them. */
  public long reopenedFiles() {
    return openFiles.reopens();
  }

  /** Whether the count bounds open descriptors apart from the tables kept (a byte bound is set). */
  boolean boundsDescriptorsApart() {
    return byBytes;
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
    if (boundReached && (byBytes ? bytesLeft <= maxBytes / 4 * 3 : filesLeft <= maxFiles / 4 * 3)) {
      boundReached = false;
    }
  }

  /** Whether the kept tables pass their bound: the bytes, or without a byte bound the count. */
  boolean over() {
    return byBytes ? bytes.get() > maxBytes : files.get() > maxFiles;
  }

  /**
   * A cache evicted a table for this budget. With a byte bound, every eviction is the bytes':
   * the tables no longer all fit, and versions stop keeping them. Without, an eviction is over
   * the count; while other caches share the budget it may be their tables crowding this one's,
   * while a cache alone in its budget evicting over the count is a tree over it, which {@link
   * #keepsAll}'s count already tells (and a compaction's inputs and outputs pass it for a moment
   * in a tree that fits).
   */
  void evicted() {
    if (!boundReached && (byBytes || caches.size() > 1)) {
      boundReached = true; // written once: every point read of every database reads it
    }
  }

  /**
   * Whether a tree of {@code treeFiles} tables fits, so that a version may keep a handle on each
   * of its tables (docs/architecture.md, "A version keeps its tables open"): no eviction for the
   * bytes (or, shared, for the other databases) since the kept tables last fell to three quarters
   * of the bound, and without a byte bound within the count. The open descriptors do not count:
   * a kept table's file may be closed and open again on its next read. A tree that outgrew the
   * budget is not kept while it stays near it: its reads acquire per read, and the bound holds
   * to within the handles that versions installed before took (kept until each version is
   * released).
   */
  boolean keepsAll(int treeFiles) {
    return (byBytes || treeFiles <= maxFiles) && !boundReached;
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
   * the largest share of the bound (pinned bytes, or tables without a byte bound), as long as that
   * one keeps more of it than {@code asker} (which then evicts its own): each database's share
   * tends to an equal one under pressure, and a database of many small tables is not drained for
   * one of few large ones. The caches are scanned once per cache chosen, not per table shed.
   * Called with no cache's lock held; takes one cache's at a time.
   */
  void makeRoom(TableCache asker) {
    while (over()) {
      TableCache largest = null;
      for (TableCache c : caches) {
        if (c != asker && (largest == null || share(c) > share(largest))) {
          largest = c;
        }
      }
      int shed = 0;
      while (largest != null && over() && share(largest) > share(asker) && largest.shedOne()) {
        shed++;
      }
      if (shed == 0) {
        return;
      }
    }
  }

  /** What {@code cache} keeps of the bound: its pinned bytes, or without a byte bound its tables. */
  private long share(TableCache cache) {
    return byBytes ? cache.cachedPinnedBytes() : cache.cachedTables();
  }
}

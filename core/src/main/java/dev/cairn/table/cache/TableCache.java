package dev.cairn.table.cache;

import dev.cairn.CairnIOException;
import dev.cairn.cache.BlockCache;
import dev.cairn.cache.RefCounts;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import dev.cairn.fs.ReadableFile;
import dev.cairn.key.RangeTombstones;
import dev.cairn.table.ReadaheadBuffers;
import dev.cairn.table.TableReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Open tables, keyed by (file number, footer offset), bounded by a {@link TableCacheBudget}, the
 * database's own or shared with the other databases of the process: the heap their indexes and
 * filters pin ({@link TableReader#pinnedBytes}) bounds the tables kept, and a count their open
 * files, whose descriptors close under it while their tables stay kept ({@link ReopeningFile});
 * without a byte bound the count bounds the tables kept. A count of tables alone lets a tree of
 * more tables than the process may hold open read and decode the same tables over and over (each
 * point read consults a table per level, and an open reads a footer, an index and a filter),
 * while a tree of large tables pins far more per table.
 *
 * <p>Keying by footer offset lets block compaction publish a new footer for the same file: the
 * new key opens a reader for the new footer while old readers keep serving old versions.
 *
 * <p>Each entry is reference-counted: the cache holds one reference while the entry is cached,
 * each {@link TableHandle} one more; the reader closes when the count reaches zero, so eviction
 * never closes a reader in use.
 *
 * <h2>Concurrency</h2>
 *
 * A point read acquires a table per level it consults, so the hit path takes no lock: a lookup
 * in a {@link ConcurrentHashMap} and a reference taken only while the count is above zero
 * ({@link Entry#tryRetain}). An entry leaves the map before the cache's reference is dropped, so
 * a reader that found an entry whose count already reached zero (it was evicted and released
 * between the lookup and the retain) simply looks again. Opening, inserting and evicting take
 * {@code lock}; tables are opened outside it.
 *
 * <h2>Eviction</h2>
 *
 * Second chance (CLOCK) instead of exact LRU, so that a hit writes no shared list: a hit marks its
 * entry used; when an insert takes the cache over its budget, entries are visited in the map's
 * order, a used one is spared once (its mark cleared) and an unused one evicted; the entry just
 * inserted is never the one evicted.
 */
public final class TableCache implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(TableCache.class.getName());
  private record Key(long fileNumber, long footerOffset) {}

  /** {@link #rangeTombstones}: what is known of each table's range tombstones, by file and footer. */
  private final ConcurrentHashMap<Key, RangeTombstones> rangeTombstonesByFile = new ConcurrentHashMap<>();

  // Immutable after construction.
  private final FileSystem fs;
  private final Path dbDir;
  private final TableCacheBudget budget;
  private final BlockCache blockCache;
  /** Shared by the iterators of every table this cache opens (used only on direct reads). */
  private final ReadaheadBuffers readaheadBuffers = new ReadaheadBuffers();

  // Guards inserts, evictions and closing; lookups read entries without it.
  private final Object lock = new Object();
  private final ConcurrentHashMap<Key, Entry> entries = new ConcurrentHashMap<>();
  /** Sum of {@link TableReader#pinnedBytes} over {@code entries}; written under {@code lock}. */
  private volatile long cachedPinnedBytes;
  private volatile boolean closed;

  private final LongAdder opens = new LongAdder();
  private final AtomicInteger openReaders = new AtomicInteger();

  /**
   * A cache bounded by count alone.
   *
   * @param capacity most tables kept open when no handle holds them (at least 1)
   * @param blockCache shared by all readers; null for uncached reads
   */
  public TableCache(FileSystem fs, Path dbDir, int capacity, BlockCache blockCache) {
    this(fs, dbDir, TableCacheBudget.forOneDatabase(capacity, 0), blockCache);
  }

  /**
   * @param budget the bounds: the bytes of index and filter the kept tables may pin and the most
   *     table files open (without a byte bound, the count bounds the tables kept); the table just
   *     opened stays cached whatever its size
   * @param blockCache shared by all readers; null for uncached reads
   */
  public TableCache(FileSystem fs, Path dbDir, TableCacheBudget budget, BlockCache blockCache) {
    this.fs = fs;
    this.dbDir = dbDir;
    this.budget = budget;
    this.blockCache = blockCache;
    budget.register(this);
  }

  /**
   * The range tombstones of table {@code fileNumber} as of its footer at {@code footerOffset},
   * remembered until the file or the footer is evicted: a footer's tombstones never change, so
   * an iterator learns which tables hold some without opening each table again.
   */
  public RangeTombstones rangeTombstones(long fileNumber, long footerOffset) throws IOException {
    Key key = new Key(fileNumber, footerOffset);
    RangeTombstones known = rangeTombstonesByFile.get(key);
    if (known != null) {
      return known;
    }
    try (TableHandle h = acquire(fileNumber, footerOffset)) {
      known = h.reader().rangeTombstones();
    }
    rangeTombstonesByFile.put(key, known);
    return known;
  }

  /** Returns a handle on the table at {@code footerOffset} of file {@code fileNumber}. */
  public TableHandle acquire(long fileNumber, long footerOffset) throws IOException {
    Key key = new Key(fileNumber, footerOffset);
    Entry cached = entries.get(key);
    if (cached != null && cached.tryRetain()) {
      cached.markUsed();
      return new TableHandle(cached);
    }
    checkOpen();
    TableReader reader = openReader(fileNumber, footerOffset);
    List<Entry> evicted;
    TableHandle handle;
    Entry inserted = null;
    synchronized (lock) {
      // Under the lock an entry in the map still holds the cache's reference: retaining succeeds.
      Entry e = closed ? null : entries.get(key);
      if (e != null && e.tryRetain()) {
        // Another thread opened it meanwhile: use theirs.
        handle = new TableHandle(e);
        evicted = List.of();
      } else {
        Entry fresh = new Entry(reader, closed ? 1 : 2); // the handle's, and the cache's if cached
        handle = new TableHandle(fresh);
        if (!closed) {
          entries.put(key, fresh);
          cachedPinnedBytes += fresh.pinnedBytes;
          budget.added(fresh.pinnedBytes);
          inserted = fresh;
        }
        reader = null;
        // A shared budget first takes room from the caches that keep more than this one.
        evicted = budget.isShared() ? List.of() : evictOverCapacity(fresh);
      }
    }
    if (reader != null) { // the other thread's reader serves: this one was never used
      openReaders.decrementAndGet();
      try {
        reader.close();
      } catch (IOException failure) {
        LOG.log(System.Logger.Level.WARNING, "closing a table opened twice: " + failure);
      }
    }
    releaseEvicted(evicted);
    if (inserted != null && budget.isShared() && budget.over()) {
      budget.makeRoom(this);
      List<Entry> own;
      synchronized (lock) {
        own = evictOverCapacity(inserted);
      }
      releaseEvicted(own);
    }
    return handle;
  }

  /**
   * Evicts one table for another cache of a shared budget ({@link TableCacheBudget#makeRoom}):
   * one not used since last visited if there is one, else any. Returns whether one went.
   */
  boolean shedOne() {
    List<Entry> gone;
    synchronized (lock) {
      gone = evict(null, 1, false);
    }
    releaseEvicted(gone);
    return !gone.isEmpty();
  }

  private TableReader openReader(long fileNumber, long footerOffset) throws IOException {
    Path path = FileNames.tablePath(dbDir, fileNumber);
    ReadableFile file = budget.boundsDescriptorsApart()
        ? ReopeningFile.open(fs, path, budget.openFiles())
        : fs.openReadable(path);
    TableReader reader = TableReader.open(file, path.getFileName().toString(),
        fileNumber, footerOffset, blockCache, readaheadBuffers);
    opens.increment();
    openReaders.incrementAndGet();
    return reader;
  }

  /**
   * Removes entries until the budget is kept, sparing {@code keep} (just inserted) and, on the
   * first pass, every entry used since it was last visited (see the class comment). A shared
   * budget may stay over when this cache has nothing left to give and no other keeps more.
   * Requires: lock held.
   */
  private List<Entry> evictOverCapacity(Entry keep) {
    return evict(keep, Integer.MAX_VALUE, true);
  }

  /**
   * The second-chance pass of the class comment: removes up to {@code most} entries other than
   * {@code keep}, unused ones first, stopping early once the budget is kept when {@code
   * untilWithinBudget}. Requires: lock held.
   */
  private List<Entry> evict(Entry keep, int most, boolean untilWithinBudget) {
    List<Entry> out = new ArrayList<>();
    for (int pass = 0; pass < 2 && out.size() < most && (!untilWithinBudget || budget.over()); pass++) {
      Iterator<Entry> it = entries.values().iterator();
      while (out.size() < most && (!untilWithinBudget || budget.over()) && it.hasNext()) {
        Entry e = it.next();
        if (e == keep || (pass == 0 && e.clearUsed())) {
          continue;
        }
        it.remove();
        forget(e);
        budget.evicted(); // after forget: the latch is cleared by a tree that shrank, not by evictions
        out.add(e);
      }
    }
    return out;
  }

  /** An entry left the map: its bytes leave this cache's count and the budget. Requires: lock held. */
  private void forget(Entry e) {
    cachedPinnedBytes -= e.pinnedBytes;
    budget.removed(e.pinnedBytes);
  }

  /**
   * Forgets every reader of a deleted file (each closes when its last handle is released) and
   * drops the file's blocks from the block cache.
   */
  public void evict(long fileNumber) {
    rangeTombstonesByFile.keySet().removeIf(k -> k.fileNumber() == fileNumber);
    List<Entry> removed = new ArrayList<>();
    synchronized (lock) {
      // The predicate's side effect is safe: every change to the map happens under this lock.
      entries.entrySet().removeIf(e -> {
        if (e.getKey().fileNumber() == fileNumber) {
          removed.add(e.getValue());
          return true;
        }
        return false;
      });
      removed.forEach(this::forget);
    }
    releaseEvicted(removed);
    if (blockCache != null) {
      blockCache.evictFile(fileNumber);
    }
  }

  /**
   * Forgets the reader of one superseded footer of a live file (after block compaction). The
   * file's cached blocks stay: their offsets are still valid.
   */
  public void evictFooter(long fileNumber, long footerOffset) {
    rangeTombstonesByFile.remove(new Key(fileNumber, footerOffset));
    Entry e;
    synchronized (lock) {
      e = entries.remove(new Key(fileNumber, footerOffset));
      if (e != null) {
        forget(e);
      }
    }
    if (e != null) {
      releaseEvicted(List.of(e));
    }
  }

  /**
   * Drops the cache's reference on each entry that left the map. A reader that fails to close
   * here is logged, not thrown: it was only read, so nothing is lost, and the failure belongs to
   * no caller (the read that made room for its own table, possibly another database's, or the
   * close of the database) and must not stop the other entries from being released.
   */
  private static void releaseEvicted(List<Entry> gone) {
    for (Entry e : gone) {
      try {
        e.release();
      } catch (CairnIOException failure) {
        LOG.log(System.Logger.Level.WARNING, "closing an evicted table: " + failure.getMessage());
      }
    }
  }

  /** The bounds this cache keeps its tables within. */
  public TableCacheBudget budget() {
    return budget;
  }

  /**
   * Whether a tree of {@code files} tables fits the cache's budget, so that a version may keep a
   * handle on each of its tables ({@link TableCacheBudget#keepsAll}).
   */
  public boolean keepsAll(int files) {
    return budget.keepsAll(files);
  }

  /** Bytes of index and filter the tables this cache keeps pin ({@link TableReader#pinnedBytes}). */
  public long cachedPinnedBytes() {
    return cachedPinnedBytes;
  }

  /** Tables now open, including evicted ones still held by a handle. */
  public int openTables() {
    return openReaders.get();
  }

  /** Tables opened since construction (each open reads footer, index, filter). */
  public long opens() {
    return opens.sum();
  }

  /** Tables kept in the cache. */
  public int cachedTables() {
    return entries.size();
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("table cache closed");
    }
  }

  /** Drops every entry; readers still held close when their handles are released. */
  @Override
  public void close() {
    List<Entry> all;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      all = new ArrayList<>(entries.values());
      entries.clear();
      all.forEach(this::forget);
    }
    budget.deregister(this);
    releaseEvicted(all);
  }

  /** A cached reader and its reference count. */
  final class Entry {
    final TableReader reader;
    /** The reader's {@link TableReader#pinnedBytes}, fixed at open. */
    final long pinnedBytes;
    private final AtomicInteger refs;
    /**
     * Set by a hit, cleared by an eviction pass that spares the entry. Written and read without
     * synchronization: a lost mark only makes an entry look unused once, which CLOCK tolerates.
     */
    private boolean used = true;

    Entry(TableReader reader, int initialRefs) {
      this.reader = reader;
      this.pinnedBytes = reader.pinnedBytes();
      this.refs = new AtomicInteger(initialRefs);
    }

    /** Adds a reference unless the reader is already closed (count zero); returns whether it did. */
    boolean tryRetain() {
      return RefCounts.retainIfLive(refs);
    }

    void markUsed() {
      if (!used) { // a hit on a marked entry writes nothing: no cache line moves between readers
        used = true;
      }
    }

    /** Clears the mark; returns whether it was set. */
    boolean clearUsed() {
      boolean was = used;
      used = false;
      return was;
    }

    void release() {
      int left = refs.decrementAndGet();
      assert left >= 0 : "table " + reader + " released too often";
      if (left == 0) {
        try {
          reader.close();
        } catch (IOException e) {
          throw new CairnIOException("close " + reader.fileName(), e);
        } finally {
          openReaders.decrementAndGet();
        }
      }
    }
  }
}

package dev.cairn.table;

import dev.cairn.CairnIOException;
import dev.cairn.cache.BlockCache;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Open tables, keyed by (file number, footer offset), bounded by count with LRU eviction. A table
 * keeps its index and filter pinned while open, so this bounds that memory and the open files.
 *
 * <p>Keying by footer offset lets block compaction publish a new footer for the same file: the
 * new key opens a reader for the new footer while old readers keep serving old versions.
 *
 * <p>Each entry is reference-counted: the cache holds one reference while the entry is cached,
 * each {@link TableHandle} one more; the reader closes when the count reaches zero, so eviction
 * never closes a reader in use. Thread-safe; tables are opened outside the lock.
 */
public final class TableCache implements AutoCloseable {
  private record Key(long fileNumber, long footerOffset) {}

  // Immutable after construction.
  private final FileSystem fs;
  private final Path dbDir;
  private final int capacity;
  private final BlockCache blockCache;

  private final Object lock = new Object();
  // Guarded by lock; access order, eldest first.
  private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private boolean closed;

  private final LongAdder opens = new LongAdder();
  private final AtomicInteger openReaders = new AtomicInteger();

  /**
   * @param capacity most tables kept open when no handle holds them (at least 1)
   * @param blockCache shared by all readers; null for uncached reads
   */
  public TableCache(FileSystem fs, Path dbDir, int capacity, BlockCache blockCache) {
    if (capacity < 1) {
      throw new IllegalArgumentException("table cache capacity must be >= 1: " + capacity);
    }
    this.fs = fs;
    this.dbDir = dbDir;
    this.capacity = capacity;
    this.blockCache = blockCache;
  }

  /** Returns a handle on the table at {@code footerOffset} of file {@code fileNumber}. */
  public TableHandle acquire(long fileNumber, long footerOffset) throws IOException {
    Key key = new Key(fileNumber, footerOffset);
    synchronized (lock) {
      checkOpen();
      Entry e = entries.get(key);
      if (e != null) {
        e.refs.incrementAndGet();
        return new TableHandle(e);
      }
    }
    TableReader reader = openReader(fileNumber, footerOffset);
    List<Entry> evicted;
    TableHandle handle;
    synchronized (lock) {
      Entry e = closed ? null : entries.get(key);
      if (e != null) {
        // Another thread opened it meanwhile: use theirs.
        e.refs.incrementAndGet();
        handle = new TableHandle(e);
        evicted = List.of();
      } else {
        Entry fresh = new Entry(reader);
        fresh.refs.set(closed ? 1 : 2); // the cache's reference and the handle's
        handle = new TableHandle(fresh);
        if (!closed) {
          entries.put(key, fresh);
        }
        reader = null;
        evicted = evictOverCapacity();
      }
    }
    if (reader != null) {
      reader.close();
      openReaders.decrementAndGet();
    }
    evicted.forEach(Entry::release);
    return handle;
  }

  private TableReader openReader(long fileNumber, long footerOffset) throws IOException {
    Path path = FileNames.tablePath(dbDir, fileNumber);
    TableReader reader = TableReader.open(fs.openReadable(path), path.getFileName().toString(),
        fileNumber, footerOffset, blockCache);
    opens.increment();
    openReaders.incrementAndGet();
    return reader;
  }

  // Requires: lock held.
  private List<Entry> evictOverCapacity() {
    List<Entry> out = new ArrayList<>();
    Iterator<Entry> it = entries.values().iterator();
    while (entries.size() - out.size() > capacity && it.hasNext()) {
      out.add(it.next());
      it.remove();
    }
    return out;
  }

  /**
   * Forgets every reader of a deleted file (each closes when its last handle is released) and
   * drops the file's blocks from the block cache.
   */
  public void evict(long fileNumber) {
    List<Entry> removed = new ArrayList<>();
    synchronized (lock) {
      entries.entrySet().removeIf(e -> {
        if (e.getKey().fileNumber() == fileNumber) {
          removed.add(e.getValue());
          return true;
        }
        return false;
      });
    }
    removed.forEach(Entry::release);
    if (blockCache != null) {
      blockCache.evictFile(fileNumber);
    }
  }

  /**
   * Forgets the reader of one superseded footer of a live file (after block compaction). The
   * file's cached blocks stay: their offsets are still valid.
   */
  public void evictFooter(long fileNumber, long footerOffset) {
    Entry e;
    synchronized (lock) {
      e = entries.remove(new Key(fileNumber, footerOffset));
    }
    if (e != null) {
      e.release();
    }
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
    synchronized (lock) {
      return entries.size();
    }
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
    }
    all.forEach(Entry::release);
  }

  /** A cached reader and its reference count. */
  final class Entry {
    final TableReader reader;
    final AtomicInteger refs = new AtomicInteger();

    Entry(TableReader reader) {
      this.reader = reader;
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

package dev.cairn.db.base;

import dev.cairn.CairnIOException;
import dev.cairn.fs.FileNames;
import dev.cairn.fs.IoTag;
import dev.cairn.iter.ForwardingIterator;
import dev.cairn.iter.InternalIterator;
import dev.cairn.table.cache.TableCache;
import dev.cairn.table.cache.TableHandle;
import dev.cairn.version.FileMetaData;
import java.io.IOException;

/** Iterators over one table that keep the table open (pinned in the table cache) until closed. */
public final class TableIterators {
  private TableIterators() {}

  /** Pins a table in the table cache, opening it if needed; I/O failures become unchecked. */
  /** The range tombstones of {@code files}, in one set (each file's are read when it is opened). */
  public static dev.cairn.key.RangeTombstones rangeTombstones(TableCache tables, java.util.Collection<FileMetaData> files) {
    java.util.List<dev.cairn.key.RangeTombstones> sets = new java.util.ArrayList<>();
    for (FileMetaData f : files) {
      dev.cairn.key.RangeTombstones t;
      try {
        t = tables.rangeTombstones(f.number(), f.footerOffset());
      } catch (IOException e) {
        throw new CairnIOException("opening table " + FileNames.table(f.number()), e);
      }
      if (!t.isEmpty()) {
        sets.add(t);
      }
    }
    return sets.isEmpty() ? dev.cairn.key.RangeTombstones.EMPTY : dev.cairn.key.RangeTombstones.union(sets);
  }

  public static TableHandle acquire(TableCache tables, FileMetaData file) {
    try {
      return tables.acquire(file.number(), file.footerOffset());
    } catch (IOException e) {
      throw new CairnIOException("opening table " + FileNames.table(file.number()), e);
    }
  }

  public static InternalIterator open(TableCache tables, FileMetaData file, boolean fillCache, IoTag tag) {
    TableHandle handle = acquire(tables, file);
    try {
      return new Pinned(handle.reader().iterator(fillCache, tag), handle);
    } catch (RuntimeException e) {
      handle.close();
      throw e;
    }
  }

  private static final class Pinned extends ForwardingIterator {
    private final TableHandle handle;
    private boolean closed;

    Pinned(InternalIterator inner, TableHandle handle) {
      super(inner);
      this.handle = handle;
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        try {
          inner.close();
        } finally {
          handle.close();
        }
      }
    }
  }
}

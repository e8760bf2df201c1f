package dev.cairn.table.cache;

import dev.cairn.table.TableReader;

/**
 * A reference to an open table from {@link TableCache#acquire}. The reader stays open while any
 * handle is held, even if the cache evicts it meanwhile. Close exactly once.
 */
public final class TableHandle implements AutoCloseable {
  private final TableCache.Entry entry;
  private boolean closed;

  TableHandle(TableCache.Entry entry) {
    this.entry = entry;
  }

  public TableReader reader() {
    assert !closed : "reader() after close";
    return entry.reader;
  }

  @Override
  public void close() {
    assert !closed : "table handle closed twice";
    if (!closed) {
      closed = true;
      entry.release();
    }
  }
}

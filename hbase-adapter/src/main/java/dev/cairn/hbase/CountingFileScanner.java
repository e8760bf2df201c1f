package dev.cairn.hbase;

import java.io.IOException;
import java.util.function.IntConsumer;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.KeyValueScanner;

/**
 * One compaction input's scanner, reporting to a {@link CompactionAudit} every cell the merge
 * passes, read or skipped. A forward seek is carried out as steps of {@code next()}, so a cell
 * the merge skips (a version beyond the maximum, a masked cell) is seen too; a compaction reads
 * every block of its inputs anyway, so the steps cost CPU, not I/O. Seeks the compaction does not
 * make (backward, reverse) put the audit out of use rather than guess.
 *
 * <p>Cells of one row are counted locally and handed to the audit when the row changes or when
 * the audit asks ({@link #flush}); the row is copied once per row, not per cell. Each passed cell
 * is also shown to the audit, which traces it to the output by identity.
 */
final class CountingFileScanner implements KeyValueScanner {
  private final KeyValueScanner delegate;
  private final int index;
  private final CellComparator comparator;
  private final CompactionAudit audit;
  private boolean started;
  private boolean excluded;
  private boolean closed;
  /** The row of the position at close: null when the input was read to its end. */
  private byte[] rowAtClose;
  private byte[] pendingRow;
  private long pendingCells;

  CountingFileScanner(KeyValueScanner delegate, int index, CellComparator comparator, CompactionAudit audit) {
    this.delegate = delegate;
    this.index = index;
    this.comparator = comparator;
    this.audit = audit;
  }

  /** Hands the cells counted for the current row to the audit. */
  void flush() {
    if (pendingCells > 0) {
      audit.account().input(pendingRow, index, pendingCells);
      pendingCells = 0;
    }
  }

  /**
   * The row of the next cell the merge has not passed, or null once read to the end (or before
   * the first seek). Open, it is the scanner's current cell; closed, a copy of its row.
   */
  byte[] positionRow() {
    if (closed) {
      return rowAtClose;
    }
    Cell at = delegate.peek();
    return at == null ? null : CellUtil.cloneRow(at);
  }

  /** The next cell the merge has not passed while open (null at the end); null once closed. */
  Cell openPosition() {
    return closed ? null : delegate.peek();
  }

  boolean closed() {
    return closed;
  }

  /** Whether the merge never read this input (it was filtered out, or never seeked). */
  boolean unread() {
    return !started || excluded;
  }

  private void count(Cell cell) {
    if (pendingRow == null || !CellUtil.matchingRows(cell, pendingRow)) {
      flush();
      pendingRow = CellUtil.cloneRow(cell);
      audit.rowStarted(index, pendingRow);
    }
    pendingCells++;
    audit.passed(cell, index, pendingRow);
  }

  @Override
  public Cell peek() {
    return delegate.peek();
  }

  @Override
  public Cell next() throws IOException {
    Cell cell = delegate.next();
    if (cell != null) {
      count(cell);
    }
    return cell;
  }

  @Override
  public boolean seek(Cell key) throws IOException {
    if (!started) {
      started = true;
      audit.firstSeek(this, key);
      return delegate.seek(key);
    }
    Cell at = delegate.peek();
    if (at != null && comparator.compare(key, at) < 0) {
      audit.giveUp("a backward seek on " + getFilePath());
      return delegate.seek(key);
    }
    return reseek(key);
  }

  @Override
  public boolean reseek(Cell key) throws IOException {
    Cell at = delegate.peek();
    while (at != null && comparator.compare(at, key) < 0) {
      next();
      at = delegate.peek();
    }
    return at != null;
  }

  @Override
  public boolean requestSeek(Cell kv, boolean forward, boolean useBloom) throws IOException {
    return forward ? reseek(kv) : seek(kv);
  }

  @Override
  public boolean realSeekDone() {
    return true; // every seek here is real: no lazy seek to enforce
  }

  @Override
  public void enforceSeek() {}

  @Override
  public long getScannerOrder() {
    return delegate.getScannerOrder();
  }

  @Override
  public boolean shouldUseScanner(Scan scan, HStore store, long oldestUnexpiredTS) {
    boolean use = delegate.shouldUseScanner(scan, store, oldestUnexpiredTS);
    excluded |= !use;
    return use;
  }

  @Override
  public boolean isFileScanner() {
    return delegate.isFileScanner();
  }

  @Override
  public void recordBlockSize(IntConsumer blockSizeConsumer) {
    delegate.recordBlockSize(blockSizeConsumer);
  }

  @Override
  public Path getFilePath() {
    return delegate.getFilePath();
  }

  @Override
  public boolean backwardSeek(Cell key) throws IOException {
    audit.giveUp("a backward seek on " + getFilePath());
    return delegate.backwardSeek(key);
  }

  @Override
  public boolean seekToPreviousRow(Cell key) throws IOException {
    audit.giveUp("a reverse seek on " + getFilePath());
    return delegate.seekToPreviousRow(key);
  }

  @Override
  public boolean seekToLastRow() throws IOException {
    audit.giveUp("a reverse seek on " + getFilePath());
    return delegate.seekToLastRow();
  }

  @Override
  public Cell getNextIndexedKey() {
    return delegate.getNextIndexedKey();
  }

  @Override
  public void shipped() throws IOException {
    delegate.shipped();
  }

  @Override
  public void close() {
    if (!closed) {
      flush();
      Cell at = delegate.peek();
      rowAtClose = at == null ? null : CellUtil.cloneRow(at);
      closed = true;
    }
    delegate.close();
  }
}

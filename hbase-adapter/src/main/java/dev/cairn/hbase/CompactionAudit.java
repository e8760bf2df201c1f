package dev.cairn.hbase;

import dev.cairn.compaction.buffer.ChangedRows;
import dev.cairn.compaction.buffer.RowChangeAccount;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.regionserver.CellSink;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.KeyValueScanner;
import org.apache.hadoop.hbase.regionserver.ShipperListener;
import org.apache.hadoop.hbase.regionserver.StoreFileReader;
import org.apache.hadoop.hbase.regionserver.StoreFileScanner;

/**
 * Finds, while one compaction runs, the rows it changes ({@link ChangedRows}): its inputs'
 * scanners report every cell the merge passes ({@link CountingFileScanner}), its writer every
 * cell written ({@link #sink}), and after each batch written the rows both sides have passed are
 * settled in a {@link RowChangeAccount}. A row whose cells the audit could not all see (an input
 * the merge filtered out or did not read to its end) counts as changed, and a seek the audit
 * cannot follow puts it out of use: the compaction is then not buffered, never wrongly buffered.
 * One per compaction, on the compaction's thread.
 */
final class CompactionAudit {
  private static final byte[] FIRST_ROW = new byte[0];

  private final RowChangeAccount account;
  private final CellComparator comparator;
  private final Map<String, HStoreFile> inputsByName = new HashMap<>();
  private final List<CountingFileScanner> inputs = new ArrayList<>();
  private String gaveUp;
  private byte[] outputRow;
  private long outputPending;
  private Optional<ChangedRows> result = Optional.empty();
  private boolean finished;

  CompactionAudit(Collection<HStoreFile> files, CellComparator comparator, int maxChangedRows) {
    this.account = new RowChangeAccount(maxChangedRows);
    this.comparator = comparator;
    for (HStoreFile f : files) {
      inputsByName.put(f.getPath().getName(), f);
    }
  }

  RowChangeAccount account() {
    return account;
  }

  /** The compaction's input scanners, each wrapped to report to this audit. */
  List<KeyValueScanner> wrap(List<StoreFileScanner> scanners) {
    List<KeyValueScanner> out = new ArrayList<>(scanners.size());
    for (StoreFileScanner s : scanners) {
      CountingFileScanner counting = new CountingFileScanner(s, comparator, this);
      inputs.add(counting);
      out.add(counting);
    }
    return out;
  }

  /** The compaction's writer, reporting each cell written and settling after each batch. */
  CellSink sink(CellSink writer) {
    return new Sink(writer);
  }

  /** An input's first seek: rows of the file below the seek's row are never seen. */
  void firstSeek(CountingFileScanner input, Cell key) {
    byte[] first = firstRow(input);
    if (first.length > 0 && comparator.compareRows(key, first, 0, first.length) > 0) {
      account.unseen(first, CellUtil.cloneRow(key));
    }
  }

  void giveUp(String why) {
    if (gaveUp == null) {
      gaveUp = why;
    }
  }

  /** Why the audit gives no rows, or null when it gives them. */
  String failure() {
    if (gaveUp != null) {
      return gaveUp;
    }
    return finished ? account.failure() : "the merge did not finish";
  }

  /** The changed rows once the merge finished; empty before, or when the audit gave up. */
  Optional<ChangedRows> result() {
    return result;
  }

  /**
   * After the merge wrote its last cell: settles every row, marks what the merge did not read as
   * changed, and keeps the changed rows ({@link #result}), unless the audit gave up.
   */
  void finishMerge() {
    if (finished) {
      throw new IllegalStateException("compaction audit already finished");
    }
    finished = true;
    flushAll();
    for (CountingFileScanner input : inputs) {
      if (input.unread()) {
        account.unseen(firstRow(input), lastRow(input));
      } else {
        byte[] at = input.positionRow();
        if (at != null) {
          account.unseen(at, lastRow(input));
        }
      }
    }
    Optional<ChangedRows> changed = account.finish();
    result = gaveUp != null ? Optional.empty() : changed;
  }

  private void output(Cell cell) {
    if (outputRow != null && CellUtil.matchingRows(cell, outputRow)) {
      outputPending++;
      return;
    }
    flushOutput();
    outputRow = CellUtil.cloneRow(cell);
    outputPending = 1;
  }

  private void flushOutput() {
    if (outputPending > 0) {
      account.output(outputRow, outputPending);
      outputPending = 0;
    }
  }

  private void flushAll() {
    flushOutput();
    inputs.forEach(CountingFileScanner::flush);
  }

  /** Settles the rows below both the output's row and every input's position. */
  private void settle() {
    if (outputRow == null) {
      return;
    }
    flushAll();
    Cell lowestInput = null;
    byte[] lowestClosed = null;
    for (CountingFileScanner input : inputs) {
      Cell at = input.openPosition();
      if (at != null && (lowestInput == null || comparator.compareRows(at, lowestInput) < 0)) {
        lowestInput = at;
      } else if (at == null && input.closed()) {
        byte[] row = input.positionRow(); // closed before its end: rare, kept as a copy
        if (row != null && (lowestClosed == null || comparator.compareRows(row, lowestClosed) < 0)) {
          lowestClosed = row;
        }
      }
    }
    byte[] bound = outputRow;
    if (lowestInput != null && comparator.compareRows(lowestInput, bound, 0, bound.length) < 0) {
      bound = CellUtil.cloneRow(lowestInput);
    }
    if (lowestClosed != null && comparator.compareRows(lowestClosed, bound) < 0) {
      bound = lowestClosed;
    }
    account.settleBelow(bound);
  }

  private byte[] firstRow(CountingFileScanner input) {
    StoreFileReader reader = reader(input);
    return reader == null ? FIRST_ROW : reader.getFirstKey().map(CellUtil::cloneRow).orElse(FIRST_ROW);
  }

  /** The file's last row, or null (no upper bound) when it cannot be read. */
  private byte[] lastRow(CountingFileScanner input) {
    StoreFileReader reader = reader(input);
    return reader == null ? null : reader.getLastKey().map(CellUtil::cloneRow).orElse(null);
  }

  private StoreFileReader reader(CountingFileScanner input) {
    HStoreFile f = inputsByName.get(input.getFilePath().getName());
    return f == null ? null : f.getReader();
  }

  /** The compaction's writer seen through the audit. */
  private final class Sink implements CellSink, ShipperListener {
    private final CellSink writer;

    Sink(CellSink writer) {
      this.writer = writer;
    }

    @Override
    public void append(Cell cell) throws IOException {
      output(cell);
      writer.append(cell);
    }

    @Override
    public void appendAll(List<Cell> cells) throws IOException {
      for (Cell c : cells) {
        output(c);
      }
      writer.appendAll(cells);
      settle();
    }

    @Override
    public void beforeShipped() throws IOException {
      ((ShipperListener) writer).beforeShipped();
    }
  }
}

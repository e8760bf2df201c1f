package dev.cairn.hbase;

import dev.cairn.hbase.buffer.ChangedRows;
import dev.cairn.hbase.buffer.RowChangeAccount;
import dev.cairn.hbase.buffer.RowFilter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
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
 * Finds, while one compaction runs, the rows it changes and, per changed row, the inputs that lost
 * all their cells of it ({@link ChangedRows}). Its inputs' scanners report every cell the merge
 * passes, read or skipped ({@link CountingFileScanner}); its writer reports every cell written
 * ({@link #sink}); after each batch written, the rows both sides have passed are settled in a
 * {@link RowChangeAccount}.
 *
 * <p>An output cell is traced to its input by identity: HBase's merge hands the writer the very
 * cell object an input's scanner returned (each is made afresh per cell). The trace is checked
 * against the timestamp and type seen when the cell was passed; a cell that cannot be traced
 * makes its row one only the output answers for. Nothing here reads a cell's bytes after it was
 * passed or written, when HBase may have released the block behind it.
 *
 * <p>It also collects each input's rows into a {@link RowFilter}: once the input is a buffered
 * leaf, a get skips it when its filter rules the row out. A filter is queried only for rows the
 * audit saw in every input (the others are changed rows, read from the output), so a filter of
 * what the input passed is complete where it is used.
 *
 * <p>Rows the audit could not see count as changed (an input the merge filtered out or did not
 * read to its end), and a seek the audit cannot follow puts it out of use: the compaction is then
 * not buffered, never wrongly buffered. One per compaction, on the compaction's thread.
 */
final class CompactionAudit {
  private static final byte[] FIRST_ROW = new byte[0];

  /** A cell an input passed and the writer has not (yet) taken. */
  private record Passed(int input, byte[] row, long timestamp, byte type) {}

  private final RowChangeAccount account;
  private final CellComparator comparator;
  private final Map<String, HStoreFile> inputsByName = new HashMap<>();
  private final List<CountingFileScanner> inputs = new ArrayList<>();
  private final List<String> inputNames = new ArrayList<>();
  private final List<RowFilter.Builder> rowFilters = new ArrayList<>();
  private List<RowFilter> builtFilters = List.of();
  private final Map<Cell, Passed> untaken = new IdentityHashMap<>();
  private String gaveUp;
  private byte[] outputRow;
  private Optional<ChangedRows> result = Optional.empty();
  private boolean finished;

  CompactionAudit(Collection<HStoreFile> files, CellComparator comparator, int maxChangedRows) {
    this.account = new RowChangeAccount(Math.max(1, files.size()), maxChangedRows);
    this.comparator = comparator;
    for (HStoreFile f : files) {
      inputsByName.put(f.getPath().getName(), f);
    }
  }

  RowChangeAccount account() {
    return account;
  }

  /**
   * The compaction's input scanners, each wrapped to report to this audit; input {@code i} of
   * the changed rows' drop masks is the {@code i}th of these ({@link #inputNames}).
   */
  List<KeyValueScanner> wrap(List<StoreFileScanner> scanners) {
    if (scanners.size() != inputsByName.size()) {
      giveUp(scanners.size() + " scanners for " + inputsByName.size() + " input files");
    }
    List<KeyValueScanner> out = new ArrayList<>(scanners.size());
    for (StoreFileScanner s : scanners) {
      CountingFileScanner counting = new CountingFileScanner(s, inputs.size(), comparator, this);
      inputs.add(counting);
      inputNames.add(s.getFilePath().getName());
      StoreFileReader reader = reader(counting);
      rowFilters.add(RowFilter.builder(reader == null ? 0 : reader.getFilterEntries()));
      out.add(counting);
    }
    return out;
  }

  /** The input files' names in the order of the drop masks' bits. */
  List<String> inputNames() {
    return List.copyOf(inputNames);
  }

  /** The compaction's writer, reporting each cell written and settling after each batch. */
  CellSink sink(CellSink writer) {
    return new Sink(writer);
  }

  /** Input {@code input} reached a new row. */
  void rowStarted(int input, byte[] row) {
    rowFilters.get(input).add(row, 0, row.length);
  }

  /** The inputs' row filters in the order of {@link #inputNames} once the merge finished; empty before. */
  List<RowFilter> rowFilters() {
    return builtFilters;
  }

  /** An input passed {@code cell} (of {@code row}, a copy the input keeps for the row). */
  void passed(Cell cell, int input, byte[] row) {
    untaken.put(cell, new Passed(input, row, cell.getTimestamp(), cell.getTypeByte()));
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
    inputs.forEach(CountingFileScanner::flush);
    untaken.clear();
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
    builtFilters = rowFilters.stream().map(RowFilter.Builder::build).toList();
  }

  private void output(Cell cell) {
    Passed passed = untaken.remove(cell);
    if (passed != null && passed.timestamp() == cell.getTimestamp() && passed.type() == cell.getTypeByte()) {
      account.output(passed.row(), passed.input(), 1);
      outputRow = passed.row();
      return;
    }
    byte[] row = outputRow != null && CellUtil.matchingRows(cell, outputRow) ? outputRow : CellUtil.cloneRow(cell);
    account.output(row, RowChangeAccount.UNKNOWN_INPUT, 1);
    outputRow = row;
  }

  /** Settles the rows below both the output's row and every input's position. */
  private void settle() {
    if (outputRow == null) {
      return;
    }
    inputs.forEach(CountingFileScanner::flush);
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
    // Cells of settled rows the writer never took were dropped; forget them.
    for (Iterator<Passed> it = untaken.values().iterator(); it.hasNext(); ) {
      if (Arrays.compareUnsigned(it.next().row(), bound) < 0) {
        it.remove();
      }
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

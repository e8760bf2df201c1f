package dev.cairn.compaction.buffer;

import dev.cairn.compaction.model.UserKeyOrder;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Finds the rows a compaction changes ({@link ChangedRows}) while it runs, by counting cells: a
 * compaction only drops cells, never makes one, so a row whose output holds as many cells as its
 * inputs do holds exactly its inputs' cells. The engine reports every input cell the merge passes
 * (read or skipped) and every cell it writes, each with its row, and settles rows once both sides
 * are past them; a settled row with fewer cells out than in is changed.
 *
 * <p>Rows are settled in increasing order: the bound given to {@link #settleBelow} may not go
 * back, and a cell reported for a row below it is a caller's error. Open rows (reported, not yet
 * settled) are only those near the merge's position, so the memory is the changed rows' bytes
 * plus a few open rows. Past {@code maxChangedRows} changed rows, or on finding a row with more
 * cells out than in, the account gives up ({@link #finish} returns empty): the compaction is then
 * not buffered. Single-threaded.
 */
public final class RowChangeAccount {
  private final TreeMap<byte[], long[]> open = new TreeMap<>(UserKeyOrder.COMPARATOR);
  private final ChangedRows.Builder changed = ChangedRows.builder();
  private final int maxChangedRows;
  private byte[] settledBelow;
  /** Why the account gave up, or null. */
  private String failure;
  private boolean finished;
  private long settledRows;

  public RowChangeAccount(int maxChangedRows) {
    if (maxChangedRows < 0) {
      throw new IllegalArgumentException("maxChangedRows must be >= 0: " + maxChangedRows);
    }
    this.maxChangedRows = maxChangedRows;
  }

  /** {@code cells} input cells of {@code row} were passed by the merge. */
  public void input(byte[] row, long cells) {
    count(row, cells, 0);
  }

  /** {@code cells} cells of {@code row} were written to the output. */
  public void output(byte[] row, long cells) {
    count(row, cells, 1);
  }

  /**
   * Rows the merge could not account for (an input it did not read to the end): every row in
   * [{@code lo}, {@code hi}] counts as changed; {@code hi == null} reaches past the last row.
   */
  public void unseen(byte[] lo, byte[] hi) {
    changed.addUnknown(lo, hi);
  }

  /**
   * Every row below {@code bound} is complete: all its input cells were passed and all its
   * output cells written. Settles them.
   */
  public void settleBelow(byte[] bound) {
    if (settledBelow != null && UserKeyOrder.compare(bound, settledBelow) < 0) {
      throw new IllegalStateException("settle bound went back to " + UserKeyOrder.printable(bound));
    }
    settledBelow = bound;
    Iterator<Map.Entry<byte[], long[]>> it = open.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<byte[], long[]> e = it.next();
      if (UserKeyOrder.compare(e.getKey(), bound) >= 0) {
        break;
      }
      settle(e.getKey(), e.getValue());
      it.remove();
    }
  }

  /**
   * Settles every open row (the merge has ended and written everything) and returns the changed
   * rows, or empty when the account gave up ({@link #failure}): more changed rows than it keeps,
   * or a row with more cells out than in (input cells the engine did not report).
   */
  public Optional<ChangedRows> finish() {
    if (finished) {
      throw new IllegalStateException("account already finished");
    }
    for (Map.Entry<byte[], long[]> e : open.entrySet()) {
      settle(e.getKey(), e.getValue());
    }
    open.clear();
    finished = true;
    return failure != null ? Optional.empty() : Optional.of(changed.build());
  }

  /** Why {@link #finish} returned (or will return) empty; null while the account holds. */
  public String failure() {
    return failure;
  }

  /** Rows settled so far. */
  public long settledRows() {
    return settledRows;
  }

  private void count(byte[] row, long cells, int side) {
    if (finished) {
      throw new IllegalStateException("account already finished");
    }
    if (settledBelow != null && UserKeyOrder.compare(row, settledBelow) < 0) {
      throw new IllegalStateException("a cell of settled row " + UserKeyOrder.printable(row));
    }
    open.computeIfAbsent(row, r -> new long[2])[side] += cells;
  }

  private void settle(byte[] row, long[] inOut) {
    settledRows++;
    if (inOut[1] > inOut[0] && failure == null) {
      // A compaction makes no cell: the engine missed input cells, so no row can be trusted.
      failure = "row " + UserKeyOrder.printable(row) + " has more cells out (" + inOut[1] + ") than in ("
          + inOut[0] + ")";
    }
    if (inOut[1] != inOut[0] && failure == null) {
      if (changed.rowCount() >= maxChangedRows) {
        failure = "more than " + maxChangedRows + " changed rows";
      } else {
        changed.addRow(row);
      }
    }
  }
}

package dev.cairn.hbase.buffer;

import dev.cairn.model.UserKeyOrder;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Finds the rows a compaction changes ({@link ChangedRows}) while it runs, by counting cells per
 * row and input: a compaction only drops cells, never makes one, so a row whose output holds as
 * many cells as its inputs do holds exactly its inputs' cells. The engine reports every input
 * cell the merge passes (read or skipped) with its input, and every cell it writes with the input
 * it came from (or {@link #UNKNOWN_INPUT}), and settles rows once both sides are past them. A
 * settled row with fewer cells out than in is changed; its drop mask names the inputs that lost
 * all their cells of the row, or is {@link ChangedRows#PARTIAL} when some input lost part of
 * them, or an output cell's input is unknown.
 *
 * <p>Rows are settled in increasing order: the bound given to {@link #settleBelow} may not go
 * back, and a cell reported for a row below it is a caller's error. Open rows (reported, not yet
 * settled) are only those near the merge's position, so the memory is the changed rows' bytes
 * plus a few open rows. Past {@code maxChangedRows} changed rows, or on finding a row with more
 * cells out than in, the account gives up ({@link #finish} returns empty): the compaction is then
 * not buffered. Single-threaded.
 */
public final class RowChangeAccount {
  /** The input of an output cell the engine could not trace. */
  public static final int UNKNOWN_INPUT = -1;

  private final int inputs;
  private final TreeMap<byte[], long[]> open = new TreeMap<>(UserKeyOrder.COMPARATOR);
  private final ChangedRows.Builder changed = ChangedRows.builder();
  private final int maxChangedRows;
  private byte[] settledBelow;
  /** Why the account gave up, or null. */
  private String failure;
  private boolean finished;
  private long settledRows;

  /**
   * @param inputs the compaction's inputs, numbered from 0; past {@link ChangedRows#MAX_INPUTS}
   *     every changed row is {@link ChangedRows#PARTIAL}
   */
  public RowChangeAccount(int inputs, int maxChangedRows) {
    if (inputs < 1 || maxChangedRows < 0) {
      throw new IllegalArgumentException("need inputs >= 1 and maxChangedRows >= 0: " + inputs + ", " + maxChangedRows);
    }
    this.inputs = inputs;
    this.maxChangedRows = maxChangedRows;
  }

  /** {@code cells} cells of {@code row} from input {@code input} were passed by the merge. */
  public void input(byte[] row, int input, long cells) {
    if (input < 0 || input >= inputs) {
      throw new IllegalArgumentException("no input " + input + " of " + inputs);
    }
    counts(row)[input] += cells;
  }

  /**
   * {@code cells} cells of {@code row} were written; they came from {@code input}, or from an
   * input the engine could not trace ({@link #UNKNOWN_INPUT}).
   */
  public void output(byte[] row, int input, long cells) {
    if (input < UNKNOWN_INPUT || input >= inputs) {
      throw new IllegalArgumentException("no input " + input + " of " + inputs);
    }
    counts(row)[inputs + 1 + input] += cells;
  }

  /**
   * Rows the merge could not account for (an input it did not read to the end): every row in
   * [{@code lo}, {@code hi}] counts as changed, {@link ChangedRows#PARTIAL}; {@code hi == null}
   * reaches past the last row.
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
   * rows, or empty when the account gave up ({@link #failure}).
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

  /** A row's counts: cells in per input, then cells out of unknown input, then out per input. */
  private long[] counts(byte[] row) {
    if (finished) {
      throw new IllegalStateException("account already finished");
    }
    if (settledBelow != null && UserKeyOrder.compare(row, settledBelow) < 0) {
      throw new IllegalStateException("a cell of settled row " + UserKeyOrder.printable(row));
    }
    return open.computeIfAbsent(row, r -> new long[2 * inputs + 1]);
  }

  private void settle(byte[] row, long[] counts) {
    settledRows++;
    long in = 0;
    long out = counts[inputs];
    for (int i = 0; i < inputs; i++) {
      in += counts[i];
      out += counts[inputs + 1 + i];
    }
    if (out > in && failure == null) {
      // A compaction makes no cell: the engine missed input cells, so no row can be trusted.
      failure = "row " + UserKeyOrder.printable(row) + " has more cells out (" + out + ") than in (" + in + ")";
    }
    if (out == in || failure != null) {
      return;
    }
    if (changed.rowCount() >= maxChangedRows) {
      failure = "more than " + maxChangedRows + " changed rows";
      return;
    }
    changed.addRow(row, dropMask(counts));
  }

  /** The inputs that lost all their cells of the row, or PARTIAL. */
  private long dropMask(long[] counts) {
    if (counts[inputs] > 0 || inputs > ChangedRows.MAX_INPUTS) {
      return ChangedRows.PARTIAL;
    }
    long mask = 0;
    for (int i = 0; i < inputs; i++) {
      long in = counts[i];
      long out = counts[inputs + 1 + i];
      if (out == in) {
        continue;
      }
      if (out != 0 || in < out) {
        return ChangedRows.PARTIAL;
      }
      mask |= ChangedRows.bit(i);
    }
    return mask == 0 ? ChangedRows.PARTIAL : mask;
  }
}

package dev.cairn.hbase.buffer;

import dev.cairn.model.UserKeyOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The rows a compaction (or a chain of them) changed: those whose cells in the output are not
 * exactly the cells of the inputs (a version beyond the maximum dropped, a cell masked by a
 * delete, an expired cell, a marker purged), plus ranges of rows the compaction did not all see.
 * A compaction buffer that lets the inputs answer in place of the output may do so for a read
 * that touches none of these rows (docs/adapters/hbase.md, "The buffer's invariant"): for every
 * other row the inputs hold exactly the output's cells.
 *
 * <p>Each changed row carries a <i>drop mask</i>: the inputs (one bit each, at most {@value
 * #MAX_INPUTS}) whose cells of that row were all dropped, while every other input's cells of the
 * row were all kept. Reading the row from the inputs less those in its mask then gives exactly
 * the output's cells, so a single-row read of a changed row can still avoid the output. A row
 * where some input lost part of its cells has {@link #PARTIAL} instead: only the output answers
 * for it.
 *
 * <p>Immutable. Rows are kept exactly, sorted and packed in one array (a row costs its bytes, an
 * int and a long), so lookups and range tests are binary searches and never err on either side;
 * the unseen ranges hold no rows and answer {@link #PARTIAL} for every row they span.
 */
public final class ChangedRows {
  /** The most inputs a drop mask can name. */
  public static final int MAX_INPUTS = 63;
  /** The mask of a row only the output can answer for. */
  public static final long PARTIAL = Long.MIN_VALUE;
  /** The mask of a row that did not change. */
  public static final long UNCHANGED = 0L;

  /** No row changed. */
  public static final ChangedRows NONE = new ChangedRows(new byte[0], new int[] {0}, new long[0], List.of());

  /** Rows, sorted and unique: row {@code i} is {@code packed[offsets[i], offsets[i + 1])}. */
  private final byte[] packed;
  private final int[] offsets;
  private final long[] masks;
  /** Disjoint inclusive ranges in key order; a null upper bound is unbounded. */
  private final List<Range> unknown;

  /** An inclusive row range; {@code hi == null} reaches past every row. */
  public record Range(byte[] lo, byte[] hi) {
    public Range {
      if (lo == null) {
        throw new IllegalArgumentException("range without a lower bound");
      }
      if (hi != null && UserKeyOrder.compare(lo, hi) > 0) {
        throw new IllegalArgumentException("empty range: lo > hi");
      }
    }

    boolean meets(byte[] qlo, byte[] qhi) {
      return (qhi == null || UserKeyOrder.compare(lo, qhi) <= 0)
          && (hi == null || qlo == null || UserKeyOrder.compare(hi, qlo) >= 0);
    }
  }

  private ChangedRows(byte[] packed, int[] offsets, long[] masks, List<Range> unknown) {
    this.packed = packed;
    this.offsets = offsets;
    this.masks = masks;
    this.unknown = List.copyOf(unknown);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The mask naming input {@code index}; refuses an index a mask cannot hold. */
  public static long bit(int index) {
    if (index < 0 || index >= MAX_INPUTS) {
      throw new IllegalArgumentException("input index out of range [0, " + MAX_INPUTS + "): " + index);
    }
    return 1L << index;
  }

  /** Rows held exactly (not counting the unseen ranges). */
  public int rowCount() {
    return offsets.length - 1;
  }

  /** Whether some range of unseen rows is held. */
  public boolean hasUnknownRanges() {
    return !unknown.isEmpty();
  }

  /** Heap bytes of the rows, offsets and masks, about: what the set costs to keep. */
  public long heapBytes() {
    long bytes = 48L + packed.length + 4L * offsets.length + 8L * masks.length;
    for (Range r : unknown) {
      bytes += 48 + r.lo().length + (r.hi() == null ? 0 : r.hi().length);
    }
    return bytes;
  }

  /** Whether {@code row} changed (or lies in a range the compaction did not see). */
  public boolean containsRow(byte[] row) {
    return maskOf(row) != UNCHANGED;
  }

  /**
   * {@code row}'s drop mask: {@link #UNCHANGED}, {@link #PARTIAL} (or a row in an unseen range),
   * or the inputs whose cells of the row were all dropped.
   */
  public long maskOf(byte[] row) {
    for (Range r : unknown) {
      if (r.meets(row, row)) {
        return PARTIAL;
      }
    }
    int i = firstAtOrAbove(row);
    return i < rowCount() && compareRow(i, row) == 0 ? masks[i] : UNCHANGED;
  }

  /**
   * Whether some changed row lies in [{@code lo}, {@code hi}]; a null bound is open on that
   * side.
   */
  public boolean intersects(byte[] lo, byte[] hi) {
    for (Range r : unknown) {
      if (r.meets(lo, hi)) {
        return true;
      }
    }
    int n = rowCount();
    int i = lo == null ? 0 : firstAtOrAbove(lo);
    return i < n && (hi == null || compareRow(i, hi) <= 0);
  }

  /** The unseen ranges, in key order. */
  public List<Range> unknownRanges() {
    return unknown;
  }

  /** Row {@code i} (a copy), in key order. */
  public byte[] row(int i) {
    return Arrays.copyOfRange(packed, offsets[i], offsets[i + 1]);
  }

  /** Row {@code i}'s mask. */
  public long mask(int i) {
    return masks[i];
  }

  /** Compares row {@code i} with row {@code j} of {@code other}. */
  int compareRows(int i, ChangedRows other, int j) {
    return Arrays.compareUnsigned(packed, offsets[i], offsets[i + 1], other.packed, other.offsets[j],
        other.offsets[j + 1]);
  }

  private int compareRow(int i, byte[] key) {
    return Arrays.compareUnsigned(packed, offsets[i], offsets[i + 1], key, 0, key.length);
  }

  /** The index of the first row at or above {@code key}; {@code rowCount()} when none is. */
  private int firstAtOrAbove(byte[] key) {
    int lo = 0;
    int hi = rowCount();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (compareRow(mid, key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("ChangedRows[");
    for (int i = 0; i < Math.min(rowCount(), 8); i++) {
      sb.append(i == 0 ? "" : ", ").append(UserKeyOrder.printable(row(i)))
          .append(masks[i] == PARTIAL ? " (partial)" : " (drops " + Long.toBinaryString(masks[i]) + ")");
    }
    if (rowCount() > 8) {
      sb.append(", ... ").append(rowCount()).append(" rows");
    }
    for (Range r : unknown) {
      sb.append("; unseen [").append(UserKeyOrder.printable(r.lo())).append(", ")
          .append(r.hi() == null ? "end" : UserKeyOrder.printable(r.hi())).append(']');
    }
    return sb.append(']').toString();
  }

  /** Collects rows in strictly increasing order and unseen ranges in any order. */
  public static final class Builder {
    private byte[] packed = new byte[256];
    private int[] offsets = new int[33];
    private long[] masks = new long[32];
    private int rows;
    private final List<Range> unknown = new ArrayList<>();

    private Builder() {}

    /**
     * Adds {@code row} with its drop mask (not {@link #UNCHANGED}); the row must sort after
     * every row added before.
     */
    public Builder addRow(byte[] row, long mask) {
      return addRow(row, 0, row.length, mask);
    }

    Builder addRow(byte[] src, int from, int to, long mask) {
      if (mask == UNCHANGED) {
        throw new IllegalArgumentException("an unchanged row has no place among changed rows");
      }
      if (rows > 0 && Arrays.compareUnsigned(packed, offsets[rows - 1], offsets[rows], src, from, to) >= 0) {
        throw new IllegalArgumentException("changed rows out of order at "
            + UserKeyOrder.printable(Arrays.copyOfRange(src, from, to)));
      }
      int len = to - from;
      int end = offsets[rows];
      if (end + len > packed.length) {
        packed = Arrays.copyOf(packed, Math.max(packed.length * 2, end + len));
      }
      System.arraycopy(src, from, packed, end, len);
      if (rows + 2 > offsets.length) {
        offsets = Arrays.copyOf(offsets, offsets.length * 2);
        masks = Arrays.copyOf(masks, offsets.length);
      }
      masks[rows] = mask;
      offsets[++rows] = end + len;
      return this;
    }

    /** Adds row {@code i} of {@code from} with {@code mask}. */
    Builder addRow(ChangedRows from, int i, long mask) {
      return addRow(from.packed, from.offsets[i], from.offsets[i + 1], mask);
    }

    /** Adds the range [{@code lo}, {@code hi}] of rows not seen; {@code hi == null}: to the end. */
    public Builder addUnknown(byte[] lo, byte[] hi) {
      unknown.add(new Range(lo, hi));
      return this;
    }

    public int rowCount() {
      return rows;
    }

    public ChangedRows build() {
      if (rows == 0 && unknown.isEmpty()) {
        return NONE;
      }
      return new ChangedRows(Arrays.copyOf(packed, offsets[rows]), Arrays.copyOf(offsets, rows + 1),
          Arrays.copyOf(masks, rows), mergedRanges(unknown));
    }

    private static List<Range> mergedRanges(List<Range> ranges) {
      List<Range> sorted = new ArrayList<>(ranges);
      sorted.sort((a, b) -> UserKeyOrder.compare(a.lo(), b.lo()));
      List<Range> out = new ArrayList<>();
      for (Range r : sorted) {
        Range last = out.isEmpty() ? null : out.get(out.size() - 1);
        if (last != null && (last.hi() == null || UserKeyOrder.compare(r.lo(), last.hi()) <= 0)) {
          byte[] hi = last.hi() == null || r.hi() == null ? null : UserKeyOrder.max(last.hi(), r.hi());
          out.set(out.size() - 1, new Range(last.lo(), hi));
        } else {
          out.add(r);
        }
      }
      return out;
    }
  }
}

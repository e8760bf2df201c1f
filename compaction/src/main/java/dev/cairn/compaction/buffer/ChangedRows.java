package dev.cairn.compaction.buffer;

import dev.cairn.compaction.model.UserKeyOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The rows a compaction changed: those whose cells in its output are not exactly the cells of
 * its inputs (a version beyond the maximum dropped, a cell masked by a delete, an expired cell, a
 * marker purged), plus ranges of rows whose cells the compaction did not all see. A compaction
 * buffer that lets a compaction's inputs answer in place of its output may do so only for rows
 * outside this set (docs/adapters/hbase.md, "The buffer's invariant"): for every other row the
 * inputs hold exactly the output's cells, so any read of those rows, raw, versioned, filtered or
 * time-ranged, sees the same cells either way.
 *
 * <p>Immutable. Rows are kept exactly, sorted and packed in one array (a row costs its bytes
 * plus an int), so a point lookup and a range test are binary searches and never err on either
 * side; the unknown ranges hold no rows and answer for every row they span.
 */
public final class ChangedRows {
  /** No row changed. */
  public static final ChangedRows NONE = new ChangedRows(new byte[0], new int[] {0}, List.of());

  /** Rows, sorted and unique: row {@code i} is {@code packed[offsets[i], offsets[i + 1])}. */
  private final byte[] packed;
  private final int[] offsets;
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
      return (qhi == null || UserKeyOrder.compare(lo, qhi) <= 0) && (hi == null || qlo == null
          || UserKeyOrder.compare(hi, qlo) >= 0);
    }
  }

  private ChangedRows(byte[] packed, int[] offsets, List<Range> unknown) {
    this.packed = packed;
    this.offsets = offsets;
    this.unknown = List.copyOf(unknown);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Rows held exactly (not counting the unknown ranges). */
  public int rowCount() {
    return offsets.length - 1;
  }

  /** Whether some range of unseen rows is held. */
  public boolean hasUnknownRanges() {
    return !unknown.isEmpty();
  }

  /** Heap bytes of the rows and offsets, about: what the set costs to keep. */
  public long heapBytes() {
    long bytes = 32L + packed.length + 4L * offsets.length;
    for (Range r : unknown) {
      bytes += 48 + r.lo().length + (r.hi() == null ? 0 : r.hi().length);
    }
    return bytes;
  }

  /** Whether {@code row} changed (or lies in a range the compaction did not see). */
  public boolean containsRow(byte[] row) {
    return intersects(row, row);
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

  /** The rows and ranges of both sets. */
  public ChangedRows union(ChangedRows other) {
    if (other.rowCount() == 0 && other.unknown.isEmpty()) {
      return this;
    }
    if (rowCount() == 0 && unknown.isEmpty()) {
      return other;
    }
    Builder b = new Builder();
    int i = 0;
    int j = 0;
    while (i < rowCount() || j < other.rowCount()) {
      byte[] next;
      if (j >= other.rowCount()) {
        next = row(i++);
      } else if (i >= rowCount()) {
        next = other.row(j++);
      } else {
        int c = Arrays.compareUnsigned(packed, offsets[i], offsets[i + 1], other.packed, other.offsets[j],
            other.offsets[j + 1]);
        next = c <= 0 ? row(i++) : other.row(j++);
        if (c == 0) {
          j++;
        }
      }
      b.addRow(next);
    }
    unknown.forEach(r -> b.addUnknown(r.lo(), r.hi()));
    other.unknown.forEach(r -> b.addUnknown(r.lo(), r.hi()));
    return b.build();
  }

  private byte[] row(int i) {
    return Arrays.copyOfRange(packed, offsets[i], offsets[i + 1]);
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
      sb.append(i == 0 ? "" : ", ").append(UserKeyOrder.printable(row(i)));
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
    private int rows;
    private final List<Range> unknown = new ArrayList<>();

    private Builder() {}

    /** Adds {@code row}, which must sort after every row added before. */
    public Builder addRow(byte[] row) {
      if (rows > 0 && Arrays.compareUnsigned(packed, offsets[rows - 1], offsets[rows], row, 0, row.length) >= 0) {
        throw new IllegalArgumentException("changed rows out of order at " + UserKeyOrder.printable(row));
      }
      int end = offsets[rows];
      if (end + row.length > packed.length) {
        packed = Arrays.copyOf(packed, Math.max(packed.length * 2, end + row.length));
      }
      System.arraycopy(row, 0, packed, end, row.length);
      if (rows + 2 > offsets.length) {
        offsets = Arrays.copyOf(offsets, offsets.length * 2);
      }
      offsets[++rows] = end + row.length;
      return this;
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
          mergedRanges(unknown));
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

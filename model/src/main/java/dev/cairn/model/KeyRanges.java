package dev.cairn.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * A set of user-key ranges (inclusive) kept as disjoint ranges, overlapping ones merged: the
 * markers of newer buffer runs (does a marker hide this file?), the cached blocks of older ones
 * (would a marker here hide cached data?). Ranges that only touch at adjacent keys stay apart:
 * inclusive byte-string ranges cannot tell adjacency, so a query spanning them is not covered.
 * Not thread-safe.
 */
public final class KeyRanges {
  /** Disjoint ranges, smallest key to largest key. */
  private final TreeMap<byte[], byte[]> ranges = new TreeMap<>(UserKeyOrder.COMPARATOR);

  /** Adds [{@code lo}, {@code hi}], merging every range it overlaps. */
  public void add(byte[] lo, byte[] hi) {
    if (UserKeyOrder.compare(lo, hi) > 0) {
      return;
    }
    Map.Entry<byte[], byte[]> below = ranges.floorEntry(lo);
    if (below != null && UserKeyOrder.compare(below.getValue(), lo) >= 0) {
      lo = below.getKey();
      hi = UserKeyOrder.compare(below.getValue(), hi) > 0 ? below.getValue() : hi;
      ranges.remove(below.getKey());
    }
    Map.Entry<byte[], byte[]> next = ranges.ceilingEntry(lo);
    while (next != null && UserKeyOrder.compare(next.getKey(), hi) <= 0) {
      if (UserKeyOrder.compare(next.getValue(), hi) > 0) {
        hi = next.getValue();
      }
      ranges.remove(next.getKey());
      next = ranges.ceilingEntry(lo);
    }
    ranges.put(lo, hi);
  }

  /** Whether some range meets [{@code lo}, {@code hi}]. */
  public boolean overlaps(byte[] lo, byte[] hi) {
    Map.Entry<byte[], byte[]> candidate = ranges.floorEntry(hi); // the last range starting at or below hi
    return candidate != null && UserKeyOrder.compare(candidate.getValue(), lo) >= 0;
  }

  /** Whether [{@code lo}, {@code hi}] lies inside one range. */
  public boolean covers(byte[] lo, byte[] hi) {
    Map.Entry<byte[], byte[]> candidate = ranges.floorEntry(lo); // the only range that can hold lo
    return candidate != null && UserKeyOrder.compare(candidate.getValue(), hi) >= 0;
  }

  public boolean isEmpty() {
    return ranges.isEmpty();
  }
}

package dev.cairn.db;

import dev.cairn.key.UserKeys;
import java.util.Map;
import java.util.TreeMap;

/**
 * A set of user-key ranges (inclusive) kept as disjoint, merged ranges: where older buffer tables
 * hold cached blocks, for the trim's question "would a marker here hide cached data?". Not
 * thread-safe; one trim pass builds and reads it.
 */
final class HotRanges {
  /** Disjoint ranges, smallest key to largest key. */
  private final TreeMap<byte[], byte[]> ranges = new TreeMap<>(UserKeys.COMPARATOR);

  /** Adds [{@code lo}, {@code hi}], merging every range it overlaps. */
  void add(byte[] lo, byte[] hi) {
    if (UserKeys.compare(lo, hi) > 0) {
      return;
    }
    Map.Entry<byte[], byte[]> below = ranges.floorEntry(lo);
    if (below != null && UserKeys.compare(below.getValue(), lo) >= 0) {
      lo = below.getKey();
      hi = UserKeys.compare(below.getValue(), hi) > 0 ? below.getValue() : hi;
      ranges.remove(below.getKey());
    }
    Map.Entry<byte[], byte[]> next = ranges.ceilingEntry(lo);
    while (next != null && UserKeys.compare(next.getKey(), hi) <= 0) {
      if (UserKeys.compare(next.getValue(), hi) > 0) {
        hi = next.getValue();
      }
      ranges.remove(next.getKey());
      next = ranges.ceilingEntry(lo);
    }
    ranges.put(lo, hi);
  }

  /** Whether some range meets [{@code lo}, {@code hi}]. */
  boolean overlaps(byte[] lo, byte[] hi) {
    Map.Entry<byte[], byte[]> candidate = ranges.floorEntry(hi); // the last range starting at or below hi
    return candidate != null && UserKeys.compare(candidate.getValue(), lo) >= 0;
  }

  boolean isEmpty() {
    return ranges.isEmpty();
  }
}

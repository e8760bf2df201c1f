package dev.cairn;

/**
 * Options of a read or an iterator.
 *
 * @param snapshot read as of this snapshot; null for the latest state
 * @param lowerBound iterators start at keys {@code >= lowerBound}; null for unbounded
 * @param upperBound iterators stop before keys {@code >= upperBound}; null for unbounded
 * @param fillCache whether blocks read from disk are added to the block cache
 */
public record ReadOptions(Snapshot snapshot, byte[] lowerBound, byte[] upperBound, boolean fillCache) {
  public static final ReadOptions DEFAULT = new ReadOptions(null, null, null, true);

  public static ReadOptions at(Snapshot snapshot) {
    return new ReadOptions(snapshot, null, null, true);
  }

  public ReadOptions withBounds(byte[] lower, byte[] upper) {
    return new ReadOptions(snapshot, lower, upper, fillCache);
  }
}

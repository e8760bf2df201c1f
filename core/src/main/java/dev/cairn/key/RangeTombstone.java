package dev.cairn.key;

import java.util.Arrays;

/**
 * A range deletion ({@code Cairn.deleteRange}): every key in [{@code from}, {@code to}) with a
 * sequence below {@code sequence} reads as deleted to a reader that sees {@code sequence}.
 *
 * <p>Requires: {@code from < to} (unsigned bytewise); the arrays are never modified.
 */
public record RangeTombstone(byte[] from, byte[] to, long sequence) {
  public RangeTombstone {
    assert UserKeys.compare(from, to) < 0 : "empty range tombstone";
  }

  /** Whether {@code userKey} lies in [from, to). */
  public boolean covers(byte[] userKey) {
    return UserKeys.compare(from, userKey) <= 0 && UserKeys.compare(userKey, to) < 0;
  }

  /** This tombstone's part in [{@code lo}, {@code hi}), or null if they do not meet. */
  public RangeTombstone clip(byte[] lo, byte[] hi) {
    byte[] f = lo != null && UserKeys.compare(lo, from) > 0 ? lo : from;
    byte[] t = hi != null && UserKeys.compare(hi, to) < 0 ? hi : to;
    return UserKeys.compare(f, t) < 0 ? new RangeTombstone(f, t, sequence) : null;
  }

  /** The internal key a table's range-deletion block stores it under (docs/format.md section 5a). */
  public byte[] startKey() {
    return InternalKey.encode(from, sequence, ValueType.RANGE_DELETION);
  }

  /**
   * The smallest internal key of a table holding this tombstone: the smallest internal key of
   * {@code from}, so that a table's bounds cover every key the tombstone deletes.
   */
  public byte[] smallestKey() {
    return InternalKey.encode(from, InternalKey.MAX_SEQUENCE, ValueType.RANGE_DELETION);
  }

  /**
   * The largest internal key of a table holding this tombstone: the largest internal key of the
   * last user key it covers where that key is finite ({@code to} ends with a zero byte: the key
   * before it is {@code to} without that byte), else of {@code to} itself, which the table then
   * claims though the tombstone does not cover it (bounds are inclusive user keys).
   */
  public byte[] largestKey() {
    byte[] last = to.length > 0 && to[to.length - 1] == 0 ? Arrays.copyOf(to, to.length - 1) : to;
    return InternalKey.encode(last, 0, ValueType.DELETION);
  }

  /** The least user key above {@code key}: {@code key} followed by a zero byte. */
  public static byte[] successor(byte[] key) {
    return Arrays.copyOf(key, key.length + 1);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RangeTombstone t && t.sequence == sequence && Arrays.equals(t.from, from)
        && Arrays.equals(t.to, to);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Arrays.hashCode(from) + Arrays.hashCode(to)) + Long.hashCode(sequence);
  }

  @Override
  public String toString() {
    return "[" + UserKeys.printable(from) + ", " + UserKeys.printable(to) + ")@" + sequence;
  }
}

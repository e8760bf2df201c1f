package dev.cairn.key;

import dev.cairn.util.Coding;
import java.util.Arrays;
import java.util.Comparator;

/** Orders internal keys: user key ascending (unsigned bytewise), then sequence/type descending. */
public final class InternalKeyComparator implements Comparator<byte[]> {
  public static final InternalKeyComparator INSTANCE = new InternalKeyComparator();

  private InternalKeyComparator() {}

  @Override
  public int compare(byte[] a, byte[] b) {
    return compare(a, 0, a.length, b);
  }

  /**
   * Compares the internal key at {@code a[aFrom, aFrom + aLength)} with {@code b}: for keys kept
   * inside a larger array (the memtable's arena) without copying them out.
   */
  public static int compare(byte[] a, int aFrom, int aLength, byte[] b) {
    int aUserEnd = aFrom + aLength - InternalKey.TRAILER_BYTES;
    int bUserEnd = b.length - InternalKey.TRAILER_BYTES;
    int c = Arrays.compareUnsigned(a, aFrom, aUserEnd, b, 0, bUserEnd);
    if (c != 0) {
      return c;
    }
    return Long.compareUnsigned(Coding.getFixed64(b, bUserEnd), Coding.getFixed64(a, aUserEnd));
  }
}

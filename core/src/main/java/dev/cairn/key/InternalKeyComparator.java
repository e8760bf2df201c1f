package dev.cairn.key;

import java.util.Comparator;

/** Orders internal keys: user key ascending (unsigned bytewise), then sequence/type descending. */
public final class InternalKeyComparator implements Comparator<byte[]> {
  public static final InternalKeyComparator INSTANCE = new InternalKeyComparator();

  private InternalKeyComparator() {}

  @Override
  public int compare(byte[] a, byte[] b) {
    int c = InternalKey.compareUserKeys(a, b);
    if (c != 0) {
      return c;
    }
    return Long.compareUnsigned(InternalKey.trailer(b), InternalKey.trailer(a));
  }
}

package dev.cairn.model;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The order of user keys: bytewise, unsigned. Defined here, in the module every other depends
 * on; core's {@code dev.cairn.key.UserKeys} delegates to it.
 */
public final class UserKeyOrder {
  public static final Comparator<byte[]> COMPARATOR = Arrays::compareUnsigned;

  private UserKeyOrder() {}

  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  /** The larger of two keys; {@code a} on a tie. */
  public static byte[] max(byte[] a, byte[] b) {
    return compare(a, b) >= 0 ? a : b;
  }

  /** The smaller of two keys; {@code a} on a tie. */
  public static byte[] min(byte[] a, byte[] b) {
    return compare(a, b) <= 0 ? a : b;
  }

  /** A readable rendering for plans and messages: printable ASCII as is, other bytes as \xNN. */
  public static String printable(byte[] key) {
    StringBuilder sb = new StringBuilder(key.length);
    for (byte b : key) {
      int c = b & 0xff;
      if (c >= 0x20 && c < 0x7f && c != '\\') {
        sb.append((char) c);
      } else {
        sb.append(String.format("\\x%02x", c));
      }
    }
    return sb.toString();
  }
}

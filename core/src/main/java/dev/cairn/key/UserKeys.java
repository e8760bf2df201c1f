package dev.cairn.key;

import java.util.Arrays;
import java.util.Comparator;

/** User keys are compared as unsigned bytes. */
public final class UserKeys {
  public static final Comparator<byte[]> COMPARATOR = Arrays::compareUnsigned;

  private UserKeys() {}

  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  /** A readable rendering for messages and dumps: printable ASCII as is, other bytes as \xNN. */
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

package dev.cairn;

import dev.cairn.key.UserKeys;
import java.util.Arrays;

/**
 * A key and its value, as returned by {@link Cairn#scan}. Two entries are equal when their keys
 * and values hold the same bytes; {@link #toString} shows both as text (printable ASCII as is,
 * other bytes as {@code \xNN}), each cut at {@value #SHOWN_BYTES} bytes.
 */
public record Entry(byte[] key, byte[] value) {
  /** How many bytes of a key or value {@link #toString} shows. */
  public static final int SHOWN_BYTES = 64;

  @Override
  public boolean equals(Object o) {
    return o instanceof Entry e && Arrays.equals(key, e.key) && Arrays.equals(value, e.value);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return "Entry[key=" + shown(key) + ", value=" + shown(value) + "]";
  }

  private static String shown(byte[] bytes) {
    if (bytes == null) {
      return "null";
    }
    if (bytes.length <= SHOWN_BYTES) {
      return UserKeys.printable(bytes);
    }
    return UserKeys.printable(Arrays.copyOf(bytes, SHOWN_BYTES)) + "... (" + bytes.length + " bytes)";
  }
}

package dev.cairn.bench.workload;

import java.nio.charset.StandardCharsets;

/**
 * Record ids as fixed-width keys: 16 ASCII digits, zero-padded, so that the engines' bytewise key
 * order is the ids' numeric order and a range of ids is a contiguous key range.
 */
public final class Keys {
  public static final int KEY_BYTES = 16;
  private static final long MAX_ID = 9_999_999_999_999_999L;

  private Keys() {}

  public static byte[] encode(long id) {
    if (id < 0 || id > MAX_ID) {
      throw new IllegalArgumentException("record id " + id + " does not fit " + KEY_BYTES + " digits");
    }
    byte[] key = new byte[KEY_BYTES];
    long rest = id;
    for (int i = KEY_BYTES - 1; i >= 0; i--) {
      key[i] = (byte) ('0' + rest % 10);
      rest /= 10;
    }
    return key;
  }

  public static long decode(byte[] key) {
    return Long.parseLong(new String(key, StandardCharsets.US_ASCII));
  }
}

package dev.cairn.bench.workload;

import java.nio.charset.StandardCharsets;

/**
 * Record ids as fixed-width keys: ASCII digits, zero-padded, so that the engines' bytewise key
 * order is the ids' numeric order and a range of ids is a contiguous key range. Keys are
 * {@value #KEY_BYTES} bytes unless a run asks for wider ones ({@code --key-bytes}, up to
 * {@value #MAX_KEY_BYTES}: BlockDB's experiments use 32-byte keys); the extra width is leading
 * zeros, so the order is the same at every width.
 */
public final class Keys {
  public static final int KEY_BYTES = 16;
  public static final int MAX_KEY_BYTES = 64;
  private static final long MAX_ID = 9_999_999_999_999_999L;

  private Keys() {}

  public static byte[] encode(long id) {
    return encode(id, KEY_BYTES);
  }

  /** {@code id} as {@code width} digits; width from {@value #KEY_BYTES} to {@value #MAX_KEY_BYTES}. */
  public static byte[] encode(long id, int width) {
    if (id < 0 || id > MAX_ID) {
      throw new IllegalArgumentException("record id " + id + " does not fit " + KEY_BYTES + " digits");
    }
    if (width < KEY_BYTES || width > MAX_KEY_BYTES) {
      throw new IllegalArgumentException("key width " + width + " outside " + KEY_BYTES + ".." + MAX_KEY_BYTES);
    }
    byte[] key = new byte[width];
    long rest = id;
    for (int i = width - 1; i >= 0; i--) {
      key[i] = (byte) ('0' + rest % 10);
      rest /= 10;
    }
    return key;
  }

  /** The id of a key of any width {@link #encode} makes. */
  public static long decode(byte[] key) {
    return Long.parseLong(new String(key, StandardCharsets.US_ASCII));
  }
}

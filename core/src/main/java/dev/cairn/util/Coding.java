package dev.cairn.util;

/**
 * Little-endian fixed-width and LEB128 varint encodings used by every on-disk format
 * (see docs/format.md). Varints take 1..5 bytes for 32-bit and 1..10 bytes for 64-bit values.
 */
public final class Coding {
  private Coding() {}

  public static void putFixed32(byte[] dst, int off, int value) {
    dst[off] = (byte) value;
    dst[off + 1] = (byte) (value >>> 8);
    dst[off + 2] = (byte) (value >>> 16);
    dst[off + 3] = (byte) (value >>> 24);
  }

  public static int getFixed32(byte[] src, int off) {
    return (src[off] & 0xff)
        | (src[off + 1] & 0xff) << 8
        | (src[off + 2] & 0xff) << 16
        | (src[off + 3] & 0xff) << 24;
  }

  public static void putFixed64(byte[] dst, int off, long value) {
    putFixed32(dst, off, (int) value);
    putFixed32(dst, off + 4, (int) (value >>> 32));
  }

  public static long getFixed64(byte[] src, int off) {
    return (getFixed32(src, off) & 0xffffffffL) | ((long) getFixed32(src, off + 4) << 32);
  }

  /** Number of bytes {@link #putVarint64} writes for {@code value}. */
  public static int varintLength(long value) {
    int len = 1;
    while ((value & ~0x7fL) != 0) {
      value >>>= 7;
      len++;
    }
    return len;
  }

  /** Writes {@code value} as a varint at {@code off}; returns the offset after it. */
  public static int putVarint64(byte[] dst, int off, long value) {
    while ((value & ~0x7fL) != 0) {
      dst[off++] = (byte) ((value & 0x7f) | 0x80);
      value >>>= 7;
    }
    dst[off++] = (byte) value;
    return off;
  }

  /** Writes a 32-bit value (treated as unsigned) as a varint; returns the offset after it. */
  public static int putVarint32(byte[] dst, int off, int value) {
    return putVarint64(dst, off, value & 0xffffffffL);
  }
}

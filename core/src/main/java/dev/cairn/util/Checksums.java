package dev.cairn.util;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * CRC32C (Castagnoli, hardware-accelerated by the JDK) with LevelDB's masking. A CRC stored next
 * to the data it covers is masked so that computing the CRC of a string that itself contains
 * embedded CRCs does not produce degenerate values.
 */
public final class Checksums {
  private static final int MASK_DELTA = 0xa282ead8;

  private Checksums() {}

  public static int crc32c(byte[] data, int off, int len) {
    CRC32C crc = new CRC32C();
    crc.update(data, off, len);
    return (int) crc.getValue();
  }

  /** CRC32C over {@code prefix[0..prefixLen)} followed by {@code data[off..off+len)}. */
  public static int crc32c(byte[] prefix, int prefixLen, byte[] data, int off, int len) {
    CRC32C crc = new CRC32C();
    crc.update(prefix, 0, prefixLen);
    crc.update(data, off, len);
    return (int) crc.getValue();
  }

  /** CRC32C of the remaining bytes of {@code buf}; does not move its position. */
  public static int crc32c(ByteBuffer buf) {
    CRC32C crc = new CRC32C();
    crc.update(buf.duplicate());
    return (int) crc.getValue();
  }

  public static int mask(int crc) {
    return ((crc >>> 15) | (crc << 17)) + MASK_DELTA;
  }

  public static int unmask(int masked) {
    int rot = masked - MASK_DELTA;
    return (rot >>> 17) | (rot << 15);
  }
}

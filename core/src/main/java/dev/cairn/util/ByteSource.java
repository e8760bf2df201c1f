package dev.cairn.util;

import dev.cairn.CorruptionException;

/**
 * Decodes the encodings of {@link Coding} from a byte range. Every read is bounds-checked:
 * running past the end, or a varint longer than its width, raises {@link CorruptionException}
 * naming {@code fileName} and the absolute offset ({@code baseOffset} + position), so that a
 * decoder fed damaged bytes never throws anything but a clean corruption error.
 */
public final class ByteSource {
  private final byte[] buf;
  private final int limit;
  private int pos;
  private final String fileName;
  private final long baseOffset;

  public ByteSource(byte[] buf, int off, int len, String fileName, long baseOffset) {
    if (off < 0 || len < 0 || off + len > buf.length) {
      throw new IllegalArgumentException("range " + off + "+" + len + " outside " + buf.length);
    }
    this.buf = buf;
    this.pos = off;
    this.limit = off + len;
    this.fileName = fileName;
    this.baseOffset = baseOffset - off;
  }

  public ByteSource(byte[] buf, String fileName, long baseOffset) {
    this(buf, 0, buf.length, fileName, baseOffset);
  }

  public CorruptionException corruption(String reason) {
    return new CorruptionException(fileName, baseOffset + pos, reason);
  }

  private void need(int n) {
    if (n < 0 || limit - pos < n) {
      throw corruption("truncated: need " + n + " bytes, have " + (limit - pos));
    }
  }

  public boolean hasRemaining() {
    return pos < limit;
  }

  public int remaining() {
    return limit - pos;
  }

  public int position() {
    return pos;
  }

  public int getByte() {
    need(1);
    return buf[pos++] & 0xff;
  }

  public int getFixed32() {
    need(4);
    int v = Coding.getFixed32(buf, pos);
    pos += 4;
    return v;
  }

  public long getFixed64() {
    need(8);
    long v = Coding.getFixed64(buf, pos);
    pos += 8;
    return v;
  }

  public long getVarint64() {
    long result = 0;
    for (int shift = 0; shift <= 63; shift += 7) {
      need(1);
      int b = buf[pos++] & 0xff;
      result |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw corruption("varint64 longer than 10 bytes");
  }

  public int getVarint32() {
    long v = getVarint64();
    if ((v >>> 32) != 0) {
      throw corruption("varint32 out of range: " + v);
    }
    return (int) v;
  }

  /** A non-negative varint32 used as a length, checked against what remains. */
  public int getLength() {
    int n = getVarint32();
    if (n < 0 || n > remaining()) {
      throw corruption("length " + (n & 0xffffffffL) + " exceeds remaining " + remaining());
    }
    return n;
  }

  public byte[] getBytes(int n) {
    need(n);
    byte[] out = new byte[n];
    System.arraycopy(buf, pos, out, 0, n);
    pos += n;
    return out;
  }

  public byte[] getLengthPrefixed() {
    return getBytes(getLength());
  }
}

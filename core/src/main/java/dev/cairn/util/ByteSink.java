package dev.cairn.util;

import java.util.Arrays;

/** A growable byte array for building encoded records; not thread-safe. */
public final class ByteSink {
  private byte[] buf;
  private int size;

  public ByteSink(int initialCapacity) {
    buf = new byte[Math.max(16, initialCapacity)];
  }

  public ByteSink() {
    this(256);
  }

  private void ensure(int extra) {
    if (size + extra > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + extra));
    }
  }

  public ByteSink putByte(int b) {
    ensure(1);
    buf[size++] = (byte) b;
    return this;
  }

  public ByteSink putBytes(byte[] src) {
    return putBytes(src, 0, src.length);
  }

  public ByteSink putBytes(byte[] src, int off, int len) {
    ensure(len);
    System.arraycopy(src, off, buf, size, len);
    size += len;
    return this;
  }

  public ByteSink putFixed32(int v) {
    ensure(4);
    Coding.putFixed32(buf, size, v);
    size += 4;
    return this;
  }

  public ByteSink putFixed64(long v) {
    ensure(8);
    Coding.putFixed64(buf, size, v);
    size += 8;
    return this;
  }

  public ByteSink putVarint32(int v) {
    ensure(5);
    size = Coding.putVarint32(buf, size, v);
    return this;
  }

  public ByteSink putVarint64(long v) {
    ensure(10);
    size = Coding.putVarint64(buf, size, v);
    return this;
  }

  /** A varint length followed by the bytes. */
  public ByteSink putLengthPrefixed(byte[] src) {
    putVarint32(src.length);
    return putBytes(src);
  }

  public int size() {
    return size;
  }

  public void reset() {
    size = 0;
  }

  /** The backing array; only the first {@link #size()} bytes are meaningful. */
  public byte[] array() {
    return buf;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(buf, size);
  }
}

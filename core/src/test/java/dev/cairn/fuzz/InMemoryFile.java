package dev.cairn.fuzz;

import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.fs.WritableFile;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A file held in a byte array: written by appending (to build seed structures with the real
 * writers), read by position (to hand fuzzed bytes to the real readers without touching disk).
 */
final class InMemoryFile implements WritableFile, ReadableFile {
  private byte[] data;
  private int size;

  InMemoryFile() {
    data = new byte[256];
  }

  /** A readable file whose contents are {@code bytes} (not copied: the fuzzer's input). */
  InMemoryFile(byte[] bytes) {
    data = bytes;
    size = bytes.length;
  }

  @Override
  public void append(byte[] src, int off, int len) {
    if (size + len > data.length) {
      data = Arrays.copyOf(data, Math.max(data.length * 2, size + len));
    }
    System.arraycopy(src, off, data, size, len);
    size += len;
  }

  @Override
  public void append(ByteBuffer src) {
    byte[] b = new byte[src.remaining()];
    src.get(b);
    append(b, 0, b.length);
  }

  @Override
  public void flush() {}

  @Override
  public void sync() {}

  @Override
  public long size() {
    return size;
  }

  @Override
  public int read(long position, ByteBuffer dst, IoTag tag) {
    if (position < 0) {
      throw new IllegalArgumentException("negative position " + position);
    }
    if (position >= size) {
      return 0;
    }
    int n = (int) Math.min(dst.remaining(), size - position);
    dst.put(data, (int) position, n);
    return n;
  }

  @Override
  public void close() {}

  byte[] bytes() {
    return Arrays.copyOf(data, size);
  }
}

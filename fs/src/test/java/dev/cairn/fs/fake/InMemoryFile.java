package dev.cairn.fs.fake;

import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.fs.WritableFile;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A file held in a byte array, for tests: written by appending (to build structures with the real
 * writers) and read by position (to hand built, damaged or fuzzed bytes to the real readers without
 * touching disk). Shared by the table, fuzz and other tests that need one.
 */
public final class InMemoryFile implements WritableFile, ReadableFile {
  private byte[] data;
  private int size;

  public InMemoryFile() {
    data = new byte[1024];
  }

  /**
   * A file whose contents are {@code bytes}. Not copied (a fuzzer's input is used as is): the
   * caller must not change the array afterwards.
   */
  public InMemoryFile(byte[] bytes) {
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

  /** A copy of the file's bytes. */
  public byte[] bytes() {
    return Arrays.copyOf(data, size);
  }
}

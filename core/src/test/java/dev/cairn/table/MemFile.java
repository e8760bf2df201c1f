package dev.cairn.table;

import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.fs.WritableFile;
import java.nio.ByteBuffer;
import java.util.Arrays;

/** Test-only in-memory file, writable by appending and readable by position. */
final class MemFile implements WritableFile, ReadableFile {
  private byte[] data = new byte[1024];
  private int size;
  int reads;

  MemFile() {}

  MemFile(byte[] contents) {
    data = contents.clone();
    size = contents.length;
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
    reads++;
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

package dev.cairn.wal;

import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.fs.WritableFile;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/** Files held in memory, so that log tests can cut and damage bytes cheaply. */
final class MemoryFiles {
  private MemoryFiles() {}

  /** An append-only file whose bytes are all visible through {@link #bytes()}. */
  static final class Writable implements WritableFile {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    int syncs;
    boolean closed;

    Writable() {}

    Writable(byte[] existing) {
      out.writeBytes(existing);
    }

    @Override
    public void append(byte[] data, int off, int len) {
      if (closed) {
        throw new IllegalStateException("append after close");
      }
      out.write(data, off, len);
    }

    @Override
    public void append(ByteBuffer data) {
      byte[] b = new byte[data.remaining()];
      data.get(b);
      append(b, 0, b.length);
    }

    @Override
    public void flush() {}

    @Override
    public void sync() {
      syncs++;
    }

    @Override
    public long size() {
      return out.size();
    }

    @Override
    public void close() {
      closed = true;
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }

  /** A readable view of a byte array. */
  static final class Readable implements ReadableFile {
    private final byte[] bytes;
    long bytesRead;

    Readable(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public int read(long position, ByteBuffer dst, IoTag tag) {
      if (position >= bytes.length) {
        return 0;
      }
      int n = (int) Math.min(dst.remaining(), bytes.length - position);
      dst.put(bytes, (int) position, n);
      bytesRead += n;
      return n;
    }

    @Override
    public long size() {
      return bytes.length;
    }

    @Override
    public void close() {}
  }
}

package dev.cairn.fs;

import java.io.IOException;
import java.nio.ByteBuffer;

/** A file read by position; safe for concurrent readers. */
public interface ReadableFile extends AutoCloseable {
  /**
   * Reads up to {@code dst.remaining()} bytes starting at {@code position} into {@code dst},
   * retrying short reads until {@code dst} is full or the end of file is reached; returns the
   * number of bytes read (less than requested only at end of file). The bytes are counted under
   * {@code tag}.
   */
  int read(long position, ByteBuffer dst, IoTag tag) throws IOException;

  /** Reads exactly {@code len} bytes at {@code position} or throws {@link java.io.EOFException}. */
  default byte[] readFully(long position, int len, IoTag tag) throws IOException {
    byte[] out = new byte[len];
    int n = read(position, ByteBuffer.wrap(out), tag);
    if (n != len) {
      throw new java.io.EOFException("short read: wanted " + len + " bytes at " + position + ", got " + n);
    }
    return out;
  }

  long size() throws IOException;

  /**
   * The alignment (bytes) this file's reads bypass the page cache with, or 0 when reads go
   * through the page cache. A positive value tells readers that nobody reads ahead for them (the
   * kernel does for page-cache reads), and that a read whose position, length and direct buffer
   * address are multiples of it is served without an internal copy.
   */
  default int directReadAlignment() {
    return 0;
  }

  @Override
  void close() throws IOException;
}

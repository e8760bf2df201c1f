package dev.cairn.fs;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A file written strictly by appending. {@link #flush()} hands buffered bytes to the OS (they
 * survive a process crash); {@link #sync()} makes them durable (they survive power loss).
 * Not thread-safe: callers serialise appends.
 */
public interface WritableFile extends AutoCloseable {
  void append(byte[] data, int off, int len) throws IOException;

  default void append(byte[] data) throws IOException {
    append(data, 0, data.length);
  }

  void append(ByteBuffer data) throws IOException;

  /** Hands buffered bytes to the operating system. */
  void flush() throws IOException;

  /** Flushes and forces the bytes and the file's metadata to the device (fsync). */
  void sync() throws IOException;

  /** Bytes in the file including those still buffered. */
  long size();

  /** Flushes and closes; does not sync. Idempotent. */
  @Override
  void close() throws IOException;
}

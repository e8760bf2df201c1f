package dev.cairn.fs;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;

/**
 * {@link LocalFileSystem}'s writable file: appends buffered in memory and written on {@link
 * #flush()}, through a {@link Sink} (a {@link RandomAccessFile}, not a FileChannel: a FileChannel
 * is closed when a thread blocked in it is interrupted, and the WAL is written on caller threads,
 * so one interrupted {@code put} would otherwise close the log under every writer).
 *
 * <p>A write or sync that fails leaves the file's contents past its last good write unknown: a
 * write may have put part of the buffer on disk (out of space), and after a failed sync the
 * kernel may have dropped the dirty pages and a later sync may report success without them. So
 * the first failure breaks the file: the buffer is dropped, every later append, flush and sync
 * throws, and {@link #close()} only releases the descriptor. Writing the buffer again would put
 * a second copy of a record after the part the failed write left (a log that then reads as
 * damaged in the middle), and a later sync would claim durability it does not have.
 */
final class BufferedWritableFile implements WritableFile {
  /** Where the bytes go: the file's descriptor, or a test's. */
  interface Sink {
    void write(byte[] data, int off, int len) throws IOException;

    void sync() throws IOException;

    void close() throws IOException;

    static Sink of(RandomAccessFile file) {
      return new Sink() {
        @Override
        public void write(byte[] data, int off, int len) throws IOException {
          file.write(data, off, len);
        }

        @Override
        public void sync() throws IOException {
          file.getFD().sync();
        }

        @Override
        public void close() throws IOException {
          file.close();
        }
      };
    }
  }

  private final Sink sink;
  private final String name;
  private final IoStats stats;
  private final IoTag tag;
  private final byte[] buffer;
  private int buffered;
  private long size;
  private boolean closed;
  /** The first write or sync that failed; null while the file is whole. */
  private IOException broken;

  BufferedWritableFile(Sink sink, String name, long size, int bufferBytes, IoStats stats, IoTag tag) {
    this.sink = sink;
    this.name = name;
    this.size = size;
    this.buffer = new byte[bufferBytes];
    this.stats = stats;
    this.tag = tag;
  }

  @Override
  public void append(byte[] data, int off, int len) throws IOException {
    checkWhole();
    if (len > buffer.length - buffered) {
      flush();
      if (len > buffer.length) {
        write(data, off, len);
        size += len;
        return;
      }
    }
    System.arraycopy(data, off, buffer, buffered, len);
    buffered += len;
    size += len;
  }

  @Override
  public void append(ByteBuffer data) throws IOException {
    if (data.hasArray()) {
      int len = data.remaining();
      append(data.array(), data.arrayOffset() + data.position(), len);
      data.position(data.position() + len);
      return;
    }
    byte[] chunk = new byte[Math.min(data.remaining(), buffer.length)];
    while (data.hasRemaining()) {
      int n = Math.min(chunk.length, data.remaining());
      data.get(chunk, 0, n);
      append(chunk, 0, n);
    }
  }

  @Override
  public void flush() throws IOException {
    checkWhole();
    if (buffered > 0) {
      int n = buffered;
      buffered = 0; // written once, whether or not the write succeeds
      write(buffer, 0, n);
    }
  }

  @Override
  public void sync() throws IOException {
    flush();
    try {
      sink.sync();
    } catch (IOException e) {
      throw breaks(e);
    } catch (RuntimeException | Error e) {
      breaks(new IOException(e.toString(), e));
      throw e;
    }
  }

  @Override
  public long size() {
    return size;
  }

  /** Writes what is buffered (unless a write or sync failed before) and releases the descriptor. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (broken == null) {
        flush();
      }
    } finally {
      sink.close();
    }
  }

  private void write(byte[] data, int off, int len) throws IOException {
    try {
      sink.write(data, off, len);
    } catch (IOException e) {
      throw breaks(e);
    } catch (RuntimeException | Error e) { // an OutOfMemoryError for the native buffer, say
      breaks(new IOException(e.toString(), e));
      throw e;
    }
    stats.recordWrite(tag, len);
  }

  private IOException breaks(IOException failure) {
    broken = failure;
    buffered = 0;
    return failure;
  }

  private void checkWhole() throws IOException {
    if (broken != null) {
      throw new IOException("an earlier write or sync of " + name + " failed (" + broken.getMessage()
          + "): what the file holds past its last good write is unknown", broken);
    }
  }
}

package dev.cairn.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/**
 * Positional reads through a {@link FileChannel} that survive thread interrupts. A FileChannel is
 * closed for every user when any thread blocked in it is interrupted; a table's channel is shared
 * by all readers, so one cancelled {@code get} would otherwise break the table for everyone (and
 * the next compaction reading it would latch a background error). When the channel was closed by
 * an interrupt rather than by {@link #close()}, it is reopened and the read retried, and the
 * caller's interrupt status is restored.
 */
final class InterruptSafeReader implements AutoCloseable {
  private final Path path;
  private final OpenOption[] options;
  private volatile FileChannel channel;
  private volatile boolean closed;

  InterruptSafeReader(Path path, OpenOption... options) throws IOException {
    this.path = path;
    this.options = options;
    this.channel = FileChannel.open(path, options);
  }

  /** Reads until {@code dst} is full or end of file; returns the bytes read. */
  int read(ByteBuffer dst, long position) throws IOException {
    int start = dst.position();
    boolean interrupted = false;
    try {
      while (true) {
        FileChannel ch = channel;
        try {
          while (dst.hasRemaining()) {
            long at = position + (dst.position() - start);
            // The size is taken before the read: block compaction appends to a table while it is
            // read, and a size taken after a short read may already include bytes appended since.
            // Files only grow, so a read that ends at or past this size reached the end.
            long sizeBefore = ch.size();
            int n = ch.read(dst, at);
            // A short read that reached the end of the file is the end: reading on would be a
            // read at the file's (unaligned) length, which O_DIRECT rejects (DirectReadTailTest).
            if (n <= 0 || (dst.hasRemaining() && at + n >= sizeBefore)) {
              break;
            }
          }
          return dst.position() - start;
        } catch (ClosedChannelException e) {
          if (closed) {
            throw e;
          }
          // Closed by an interrupt (ours or another reader's): clear ours so the retry can run,
          // reopen once for everyone, and read again from where this read started.
          boolean oursWasInterrupted = Thread.interrupted();
          interrupted |= oursWasInterrupted || e instanceof ClosedByInterruptException;
          dst.position(start);
          reopen(ch);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private synchronized void reopen(FileChannel broken) throws IOException {
    if (channel == broken && !closed) {
      channel = FileChannel.open(path, options);
    }
  }

  long size() throws IOException {
    return channel.size();
  }

  @Override
  public synchronized void close() throws IOException {
    closed = true;
    channel.close();
  }
}

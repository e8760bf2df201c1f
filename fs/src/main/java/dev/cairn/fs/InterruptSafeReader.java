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

  /** Reads until {@code dst} is full or the end of the file; returns the bytes read. */
  int read(ByteBuffer dst, long position) throws IOException {
    int start = dst.position();
    boolean interrupted = false;
    try {
      while (true) {
        FileChannel ch = channel;
        try {
          // One read: a positional read of a regular file returns fewer bytes than asked only at
          // the end of the file (FileChannel retries interrupted system calls itself), so a short
          // read is the end. Reading on after asking the size would race with block compaction,
          // which appends to a table while it is read: the file may have grown since, and a read
          // from the old, unaligned end is one O_DIRECT rejects (DirectReadTailTest).
          if (dst.hasRemaining()) {
            ch.read(dst, position);
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

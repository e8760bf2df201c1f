package dev.cairn.table.cache;

import dev.cairn.fs.FileSystem;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Path;

/**
 * A table's file whose descriptor {@link OpenFiles} may close while no read uses it, and which
 * opens it again on the next read: a table keeps its decoded index and filter ({@code
 * TableReader}) across the descriptor's closing, so a read of a table whose file was closed pays
 * an open, not a footer, an index and a filter read and decoded.
 *
 * <h2>Concurrency</h2>
 *
 * Each read takes the descriptor under this file's monitor and counts itself a user; the
 * descriptor closes only with no user ({@link #detachIfIdle} for the bound, the last user after
 * {@link #close}). This file never calls {@link OpenFiles} while holding its monitor, and {@link
 * OpenFiles} takes a file's monitor under its own lock, so the two never wait on each other in a
 * cycle. A table file never changes under a reader (files are never rewritten in place, and an
 * appended footer is read by its own reader), so the file opened again is the file that closed;
 * a file deleted meanwhile fails the read with {@link java.nio.file.NoSuchFileException}, which
 * only a read-only view can meet (its owner deletes files a live database would still hold).
 */
final class ReopeningFile implements ReadableFile {
  private final FileSystem fs;
  private final Path path;
  private final OpenFiles bound;
  private final int directReadAlignment;

  // Guarded by this.
  private ReadableFile file;
  private int users;
  private boolean closed;

  /** Set by a read, cleared by the bound's pass that spares it (second chance). Racy by design. */
  private boolean used = true;

  private ReopeningFile(FileSystem fs, Path path, OpenFiles bound, ReadableFile first) {
    this.fs = fs;
    this.path = path;
    this.bound = bound;
    this.file = first;
    this.directReadAlignment = first.directReadAlignment();
  }

  /** Opens {@code path} and counts its descriptor into {@code bound}. */
  static ReopeningFile open(FileSystem fs, Path path, OpenFiles bound) throws IOException {
    ReopeningFile f = new ReopeningFile(fs, path, bound, fs.openReadable(path));
    bound.opened(f);
    return f;
  }

  @Override
  public int read(long position, ByteBuffer dst, IoTag tag) throws IOException {
    ReadableFile f = acquire();
    try {
      return f.read(position, dst, tag);
    } finally {
      release();
    }
  }

  @Override
  public long size() throws IOException {
    ReadableFile f = acquire();
    try {
      return f.size();
    } finally {
      release();
    }
  }

  @Override
  public int directReadAlignment() {
    return directReadAlignment;
  }

  /** The descriptor, opened again if the bound closed it; the caller is a user until {@link #release}. */
  private ReadableFile acquire() throws IOException {
    synchronized (this) {
      if (closed) {
        throw new ClosedChannelException();
      }
      if (file != null) {
        users++;
        markUsed();
        return file;
      }
    }
    // Opened outside the monitor, which the bound waits on under its lock: a slow open (a
    // direct file looks up its file store) holds up no other file's open or close.
    ReadableFile fresh = fs.openReadable(path);
    ReadableFile f;
    ReadableFile spare = null;
    boolean installed = false;
    synchronized (this) {
      if (closed) {
        spare = fresh;
        f = null;
      } else {
        if (file == null) {
          file = fresh;
          installed = true;
        } else {
          spare = fresh; // another read opened it meanwhile: use theirs
        }
        users++;
        f = file;
      }
    }
    if (spare != null) {
      closeQuietly(spare);
    }
    if (f == null) {
      throw new ClosedChannelException();
    }
    markUsed();
    if (installed) {
      try {
        bound.reopened(this);
      } catch (RuntimeException | Error e) {
        forgetAfterFailedReopen(fresh);
        throw e;
      }
    }
    return f;
  }

  /** The bound failed to count a descriptor this read installed: this read's use ends, and the descriptor closes if idle. */
  private void forgetAfterFailedReopen(ReadableFile fresh) {
    ReadableFile orphan = null;
    synchronized (this) {
      users--;
      if (users == 0 && file == fresh) {
        orphan = file;
        file = null;
      }
    }
    if (orphan != null) {
      bound.closed(this);
      closeQuietly(orphan);
    }
  }

  private void markUsed() {
    if (!used) {
      used = true;
    }
  }

  private static void closeQuietly(ReadableFile f) {
    try {
      f.close();
    } catch (IOException e) {
      // Never read through: nothing to lose.
    }
  }

  private void release() throws IOException {
    ReadableFile last = null;
    boolean idle;
    synchronized (this) {
      users--;
      idle = users == 0;
      if (closed && idle && file != null) {
        last = file;
        file = null;
      }
    }
    if (last != null) {
      bound.closed(this);
      last.close();
    } else if (idle) {
      bound.trimIfOver(); // a file kept open past the bound for this read may close now
    }
  }

  /**
   * For the bound: takes the descriptor away if no read uses it, and returns it for the caller to
   * close; null if in use or already closed. Requires: the bound's lock (not this file's).
   */
  synchronized ReadableFile detachIfIdle() {
    if (users > 0 || file == null) {
      return null;
    }
    ReadableFile f = file;
    file = null;
    return f;
  }

  /** Whether the descriptor is open now. */
  synchronized boolean isOpen() {
    return file != null;
  }

  /** Clears the used mark; returns whether it was set. */
  boolean clearUsed() {
    boolean was = used;
    used = false;
    return was;
  }

  /** Closes the file for good: now, or when the last read in flight ends. Reads after it fail. */
  @Override
  public void close() throws IOException {
    ReadableFile f = null;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      if (users == 0 && file != null) {
        f = file;
        file = null;
      }
    }
    if (f != null) {
      bound.closed(this);
      f.close();
    }
  }

  @Override
  public String toString() {
    return path.getFileName().toString();
  }
}

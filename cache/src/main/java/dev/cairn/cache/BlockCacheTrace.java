package dev.cairn.cache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A file recording what a block cache was asked while the trace was on: every user lookup, hit
 * or miss, every block cached after a miss or as it was written, every deleted file's blocks
 * dropped. Replayed ({@link BlockCacheTraceReplay}) against another policy or capacity, it tells
 * what that cache would have kept of the same reads, as RocksDB's block cache trace and its
 * simulator tell. Background reads that leave the cache alone (a compaction's) are not recorded.
 *
 * <h2>Format</h2>
 *
 * Big-endian. A header of the eight ASCII bytes {@code CAIRNBCT} and a u32 version ({@value
 * #VERSION}), then records of {@value #RECORD_BYTES} bytes: u8 kind ({@link Kind#code}), u64 file
 * number, u64 block offset, u32 block bytes (0 for a miss, whose size the cache does not know),
 * u64 nanoseconds since the trace began. Records are in the order their calls took the trace's
 * lock, so one thread's are in its order. A trace that stops short (the process died, the disk
 * filled) is read up to its last whole record.
 *
 * <p>Recording never fails a read: the first I/O error stops the trace, and {@link #close}
 * reports it. Thread-safe.
 */
public final class BlockCacheTrace implements AutoCloseable {
  /** What a record says happened. */
  public enum Kind {
    /** A user lookup found the block. */
    HIT(1),
    /** A user lookup did not find the block. */
    MISS(2),
    /** A block read from its file was cached (after a miss). */
    READ_CACHED(3),
    /** A block was cached as it was written, before any read (flush caching, a moved block). */
    WRITTEN_CACHED(4),
    /** A deleted file's blocks were dropped (its offset and bytes are 0). */
    FILE_DROPPED(FILE_DROPPED_CODE);

    /** The record's first byte. */
    public final int code;

    Kind(int code) {
      this.code = code;
    }

    /** Indexed by code: a replay looks up every record's kind. */
    private static final Kind[] BY_CODE = new Kind[FILE_DROPPED_CODE + 1];

    static {
      for (Kind k : values()) {
        BY_CODE[k.code] = k;
      }
    }

    /** The kind of {@code code}, or null for a code no version-1 trace has. */
    static Kind of(int code) {
      return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
  }

  /** The largest kind code of version 1. */
  private static final int FILE_DROPPED_CODE = 5;

  static final byte[] MAGIC = "CAIRNBCT".getBytes(StandardCharsets.US_ASCII);
  static final int VERSION = 1;
  static final int HEADER_BYTES = 12;
  static final int RECORD_BYTES = 29;
  private static final int BUFFER_BYTES = 64 << 10;

  private final Path path;
  private final FileChannel channel;
  private final long startNanos = System.nanoTime();
  private final ReentrantLock lock = new ReentrantLock();
  // Guarded by lock.
  private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
  private IOException failure;
  private boolean closed;
  private long records;

  private BlockCacheTrace(Path path, FileChannel channel) {
    this.path = path;
    this.channel = channel;
  }

  /** A new trace in {@code file}, which must not exist: a trace never overwrites a file. */
  public static BlockCacheTrace create(Path file) throws IOException {
    FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    BlockCacheTrace trace = new BlockCacheTrace(file, channel);
    trace.buffer.put(MAGIC).putInt(VERSION);
    return trace;
  }

  public Path path() {
    return path;
  }

  /** Records written so far (some may still be buffered). */
  public long records() {
    lock.lock();
    try {
      return records;
    } finally {
      lock.unlock();
    }
  }

  /** Appends a record; after a failure or {@link #close}, does nothing. */
  void record(Kind kind, long fileNumber, long offset, int bytes) {
    long nanos = System.nanoTime() - startNanos;
    lock.lock();
    try {
      if (closed || failure != null) {
        return;
      }
      if (buffer.remaining() < RECORD_BYTES) {
        drain();
        if (failure != null) {
          return;
        }
      }
      buffer.put((byte) kind.code).putLong(fileNumber).putLong(offset).putInt(bytes).putLong(nanos);
      records++;
    } finally {
      lock.unlock();
    }
  }

  /** Writes the buffer out; an error stops the trace. Requires the lock. */
  private void drain() {
    buffer.flip();
    try {
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
    } catch (IOException e) {
      failure = e;
    }
    buffer.clear();
  }

  /**
   * Writes what is buffered and closes the file; throws the error that stopped the trace, if one
   * did (the records before it are in the file). Idempotent.
   */
  @Override
  public void close() throws IOException {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      if (failure == null) {
        drain();
      }
      try {
        channel.close();
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        }
      }
      if (failure != null) {
        throw new IOException("block cache trace " + path + " stopped after " + records + " records", failure);
      }
    } finally {
      lock.unlock();
    }
  }
}

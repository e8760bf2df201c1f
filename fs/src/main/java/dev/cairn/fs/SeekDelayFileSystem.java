package dev.cairn.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * A filesystem that makes a fast device look like a disk with a moving arm, for benchmarks
 * (docs/benchmarks.md, {@code --seek-delay-ms}): every positional read of a selected file (the
 * tables, by default) that does not start where that file's previous read ended is a <em>seek</em>
 * and waits {@code seekDelay} before it is passed on. Sequential reads (a compaction or a scan
 * walking a table block after block), writes and every other call pass straight through.
 *
 * <p>Why this model: the papers behind issues 4 and 5 (BlockDB, LSbM-tree) measured on hard
 * disks, where a block-cache miss costs a seek of milliseconds while reading on costs little;
 * this machine's device answers a random 4 KiB read in ~50 µs (peers.md), which hides what
 * a cache miss costs there. The arm is one per filesystem: seeks are served one at a time, in
 * arrival order, so concurrent misses queue as they would on one spindle and the simulated device
 * caps at {@code 1 / seekDelay} seeks per second.
 *
 * <p>What it does not model: rotational latency as a function of distance (every seek costs the
 * same), the arm's position across files (each file remembers only its own last read, so two
 * tables read alternately in sequence are each sequential), write seeks (writes are free), the
 * device's transfer rate (the real read still happens at this device's speed) and the OS page
 * cache (a read the page cache serves is still charged a seek; use direct reads to keep the cache
 * out). Every other call passes straight through. Thread-safe.
 */
public final class SeekDelayFileSystem extends ForwardingFileSystem {
  private final long seekDelayNanos;
  private final Predicate<Path> seekable;
  private final AtomicLong seeks = new AtomicLong();
  /** The one arm: a fair lock so that queued seeks are served in arrival order. */
  private final ReentrantLock arm = new ReentrantLock(true);

  /**
   * @param seekDelay added to every non-sequential read of a file {@code seekable} accepts; zero
   *     counts seeks without delaying them
   * @param seekable which files are on the simulated disk (others pass through uncounted)
   */
  public SeekDelayFileSystem(FileSystem delegate, Duration seekDelay, Predicate<Path> seekable) {
    super(delegate);
    if (seekDelay.isNegative()) {
      throw new IllegalArgumentException("seek delay must not be negative: " + seekDelay);
    }
    this.seekDelayNanos = seekDelay.toNanos();
    this.seekable = seekable;
  }

  /** Seeks cost {@code seekDelay} on table files ({@link FileNames.Kind#TABLE}) only. */
  public static SeekDelayFileSystem onTables(FileSystem delegate, Duration seekDelay) {
    return new SeekDelayFileSystem(delegate, seekDelay, SeekDelayFileSystem::isTable);
  }

  private static boolean isTable(Path path) {
    Path name = path.getFileName();
    return name != null && FileNames.parse(name.toString()).kind() == FileNames.Kind.TABLE;
  }

  /** Non-sequential reads of seekable files so far (each delayed once). */
  public long seeks() {
    return seeks.get();
  }

  public Duration seekDelay() {
    return Duration.ofNanos(seekDelayNanos);
  }

  @Override
  public ReadableFile openReadable(Path path) throws IOException {
    ReadableFile file = delegate.openReadable(path);
    return seekable.test(path) ? new SeekingFile(file) : file;
  }

  private void seek() {
    seeks.incrementAndGet();
    if (seekDelayNanos == 0) {
      return;
    }
    boolean interrupted = false;
    arm.lock();
    try {
      // parkNanos returns early on spurious wake-ups and at once while the thread is interrupted:
      // wait out the whole delay (a seek is not cancelled), keeping the interrupt for the caller.
      long until = System.nanoTime() + seekDelayNanos;
      for (long left = seekDelayNanos; left > 0; left = until - System.nanoTime()) {
        LockSupport.parkNanos(left);
        interrupted |= Thread.interrupted();
      }
    } finally {
      arm.unlock();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** A table on the simulated disk: remembers where its previous read ended. */
  private final class SeekingFile extends ForwardingFileSystem.ForwardingReadableFile {
    /** End offset of the previous read; -1 before the first, so that the first read seeks. */
    private final AtomicLong previousEnd = new AtomicLong(-1);

    SeekingFile(ReadableFile file) {
      super(file);
    }

    @Override
    public int read(long position, ByteBuffer dst, IoTag tag) throws IOException {
      long end = position + dst.remaining();
      // Swap first, so that of two concurrent readers continuing one position only one is sequential.
      if (previousEnd.getAndSet(end) != position) {
        seek();
      }
      return super.read(position, dst, tag);
    }
  }
}

package dev.cairn.db.base;

import dev.cairn.version.VersionEdit;
import dev.cairn.version.VersionSet;
import java.io.IOException;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Installs the running engine's version edits (flushes, compactions, the buffer's trim and part
 * rewrites) one at a time, writing and syncing the manifest with the engine mutex released, as
 * LevelDB's {@code LogAndApply} does: readers pinning a version, writers taking a sequence and
 * the picker claiming work do not wait behind an fsync they did not ask for.
 *
 * <p>Why it is safe. An installer holds the <em>manifest</em> from the moment it builds its edit
 * until the version is installed: the next one waits (on {@link #idle}) before it even builds,
 * so each edit is built against the version it will replace, and the buffer's changes computed
 * from that version ({@code BufferRuntime.beforeInstall}, the trim's draft) stay exact. While
 * the record is written, everything else under the mutex sees the version before the edit,
 * which is still whole: the files the edit deletes stay until it is installed and no version
 * references them (the obsolete-file collection reads the live versions), the files it adds stay
 * pending outputs until then (the caller releases them after this returns), and a compaction's
 * inputs stay claimed, so no other plan takes them. The counters the record carries (next file
 * number, last sequence) may move on meanwhile; the record holds values no later than the
 * truth, which recovery already allows for (it replays the logs and marks the files it finds).
 */
public final class EditInstaller {
  /** Builds an edit against the current version, or returns null when there is nothing to install. */
  @FunctionalInterface
  public interface EditBuilder {
    VersionEdit build() throws IOException;
  }

  private final ReentrantLock mutex;
  private final Condition idle;
  private final VersionSet versions;
  private final EngineStatus status;
  /** Guarded by the mutex: an installer holds the manifest. */
  private boolean busy;
  private final LongAdder manifestWrites = new LongAdder();
  private final LongAdder manifestWriteNanos = new LongAdder();

  EditInstaller(ReentrantLock mutex, VersionSet versions, EngineStatus status) {
    this.mutex = mutex;
    this.idle = mutex.newCondition();
    this.versions = versions;
    this.status = status;
  }

  /**
   * Requires: the mutex held once by this thread (released while the manifest is written, held
   * again on return, also on failure). Waits until no other install is in progress, builds the
   * edit with {@code builder} under the mutex (null: nothing to install, returns false), writes
   * and syncs its record without the mutex, and installs the version. A failed write installs
   * nothing, latches the engine's background error and propagates; a failure of {@code builder}
   * only propagates. The failed edit may be durable though not installed ({@link
   * VersionSet#write}): its files are kept, and the next install (a flush or compaction already
   * running may still install after the latch) starts a new manifest from the installed
   * version, so either state a reopen may find is whole.
   */
  public boolean install(EditBuilder builder) throws IOException {
    assert mutex.isHeldByCurrentThread();
    if (mutex.getHoldCount() != 1) {
      // Released once, a lock held twice would stay held through the fsync, and a caller that
      // does not hold it would race the version set: both are bugs of the caller.
      throw new IllegalStateException("install needs the engine mutex held exactly once, held "
          + mutex.getHoldCount() + " times");
    }
    while (busy) {
      idle.awaitUninterruptibly();
    }
    busy = true;
    try {
      VersionEdit edit = builder.build();
      if (edit == null) {
        return false;
      }
      VersionSet.PendingEdit pending = versions.prepare(edit);
      long start = System.nanoTime();
      try {
        mutex.unlock();
        try {
          versions.write(pending);
        } finally {
          mutex.lock();
          manifestWrites.increment();
          manifestWriteNanos.add(System.nanoTime() - start);
        }
      } catch (IOException | RuntimeException e) {
        status.latch(e);
        throw e;
      }
      versions.install(pending);
      return true;
    } finally {
      busy = false;
      idle.signalAll();
    }
  }

  /** {@link #install(EditBuilder)} of an edit already built. */
  public void install(VersionEdit edit) throws IOException {
    install(() -> edit);
  }

  /** Manifest records written and synced by installs since open. */
  public long manifestWrites() {
    return manifestWrites.sum();
  }

  /** Time those writes and syncs took, outside the mutex. */
  public long manifestWriteNanos() {
    return manifestWriteNanos.sum();
  }
}

package dev.cairn.e2e.stress;

import dev.cairn.Cairn;
import dev.cairn.Options;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The stress process's database, which one worker may cleanly close and reopen while the others
 * wait between steps, so that kills also land during a close (waiting for background work) and
 * an in-process reopen. Workers run each step between {@link #enter()} and {@link #exit()}.
 */
final class ReopenableDb implements AutoCloseable {
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final Path dir;
  private final Options options;
  /** Guarded by {@link #lock}: read to use, write to replace. */
  private Cairn db;
  private volatile int epoch;

  ReopenableDb(Path dir, Options options) {
    this.dir = dir;
    this.options = options;
    this.db = Cairn.open(dir, options);
  }

  /** The open database, held open until {@link #exit()}. */
  Cairn enter() {
    lock.readLock().lock();
    return db;
  }

  void exit() {
    lock.readLock().unlock();
  }

  /** How many times the database was reopened: a snapshot from an earlier epoch is dead. */
  int epoch() {
    return epoch;
  }

  /** Closes the database; the stress process never does (it is killed), tests do. */
  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      db.close();
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Requires: the caller is not between {@link #enter()} and {@link #exit()}. */
  void reopen() {
    lock.writeLock().lock();
    try {
      db.close();
      db = Cairn.open(dir, options);
      epoch++;
    } finally {
      lock.writeLock().unlock();
    }
  }
}

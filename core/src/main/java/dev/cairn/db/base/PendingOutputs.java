package dev.cairn.db.base;

import dev.cairn.version.VersionSet;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The numbers of the tables being written (flush and compaction outputs): allocated under the
 * engine mutex and protected from obsolete-file collection until their edit is installed or they
 * are abandoned.
 */
public final class PendingOutputs {
  private final ReentrantLock mutex;
  private final VersionSet versions;

  // Guarded by the engine mutex.
  private final Set<Long> numbers = new HashSet<>();

  PendingOutputs(ReentrantLock mutex, VersionSet versions) {
    this.mutex = mutex;
    this.versions = versions;
  }

  /** Allocates a file number for a new table and protects it from obsolete-file collection. */
  public long allocate() {
    mutex.lock();
    try {
      long n = versions.newFileNumber();
      numbers.add(n);
      return n;
    } finally {
      mutex.unlock();
    }
  }

  /** Requires: mutex held. The outputs are installed (or abandoned): collection may judge them. */
  public void release(Collection<Long> outputs) {
    assert mutex.isHeldByCurrentThread();
    numbers.removeAll(outputs);
  }

  /** Requires: mutex held. The numbers protected now. */
  public Set<Long> snapshot() {
    assert mutex.isHeldByCurrentThread();
    return Set.copyOf(numbers);
  }

  /** Requires: mutex held. Forgets every number (open: recovery's tables are installed). */
  public void clear() {
    assert mutex.isHeldByCurrentThread();
    numbers.clear();
  }
}

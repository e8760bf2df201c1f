package dev.cairn.db.base;

import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The sequence numbers of open snapshots, as a multiset. Compactions ask for them to keep, for
 * every snapshot, the newest entry it can see. Thread-safe: snapshots open under the engine
 * mutex and close without it.
 *
 * <p>The counts are immutable values, replaced whole. The map applies a remapping function and
 * then installs its result by compare-and-set, retrying on a race, and removes an entry only if
 * it still holds a value equal to the one the function saw: a count changed in place (a shared
 * counter) would let a close that brought it to zero remove the entry after an open at the same
 * sequence had raised it again, and that open snapshot would be missing from the list.
 */
public final class SnapshotList {
  private final ConcurrentSkipListMap<Long, Integer> counts = new ConcurrentSkipListMap<>();
  private final AtomicInteger size = new AtomicInteger();
  /** Guarded by the engine mutex. */
  private boolean held;

  public void add(long sequence) {
    counts.merge(sequence, 1, Integer::sum);
    size.incrementAndGet();
  }

  public void remove(long sequence) {
    counts.computeIfPresent(sequence, (k, n) -> n == 1 ? null : n - 1);
    size.decrementAndGet();
  }

  /** Distinct open snapshot sequences, ascending. */
  public long[] sequencesAscending() {
    return counts.keySet().stream().mapToLong(Long::longValue).toArray();
  }

  /** The oldest open snapshot, or {@code fallback} when none is open. */
  public long oldest(long fallback) {
    Map.Entry<Long, Integer> first = counts.firstEntry();
    return first == null ? fallback : first.getKey();
  }

  /** The newest open snapshot, or {@code fallback} when none is open. */
  public long newest(long fallback) {
    Map.Entry<Long, Integer> last = counts.lastEntry();
    return last == null ? fallback : last.getKey();
  }

  /**
   * Requires: engine mutex held. Makes new snapshots wait ({@link #isHeld()}) while an edit whose
   * compaction filter changed values is written and installed: the installer writes the manifest
   * with the mutex released, and a snapshot taken then could see the version before the edit and
   * after it.
   */
  public void hold() {
    held = true;
  }

  /** Requires: engine mutex held. Ends {@link #hold()}; the caller signals the waiters. */
  public void release() {
    held = false;
  }

  /** Requires: engine mutex held. Whether a new snapshot must wait. */
  public boolean isHeld() {
    return held;
  }

  public int size() {
    return size.get();
  }
}

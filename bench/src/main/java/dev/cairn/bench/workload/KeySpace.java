package dev.cairn.bench.workload;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The ids a run's data set holds: {@code [0, records)} loaded before the measured phase, then
 * inserts appended at {@code records, records+1, ...} (YCSB's model: new keys sort last). The
 * "latest" workloads' writer sweeps the loaded ids in order; the ids just behind its cursor are
 * the most recently written, a contiguous key range.
 */
public final class KeySpace {
  private final long records;
  private final AtomicLong nextInsert;
  private final AtomicLong sweepCursor = new AtomicLong();

  public KeySpace(long records) {
    this.records = records;
    this.nextInsert = new AtomicLong(records);
  }

  public long records() {
    return records;
  }

  /** A new id past every existing one. */
  public long claimInsert() {
    return nextInsert.getAndIncrement();
  }

  /** Ids in use: loaded plus inserted so far. */
  public long size() {
    return nextInsert.get();
  }

  /** The next id of the sweeping writer (wraps around the loaded ids). */
  public long claimSweep() {
    return Math.floorMod(sweepCursor.getAndIncrement(), records);
  }

  /** The loaded id written {@code distance} sweep steps before the newest (0 = newest). */
  public long behindSweep(long distance) {
    return Math.floorMod(sweepCursor.get() - 1 - distance, records);
  }
}

package dev.cairn.e2e.stress;

import dev.cairn.Cairn;
import dev.cairn.WriteBatch;
import dev.cairn.WriteOptions;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * One write of one thread, a pure function of (workload seed, thread, index): the stress process
 * and the driver generate the same operation independently, so the driver can compute the
 * expected state after any prefix of a thread's operations without a record of what was issued.
 *
 * <p>Every key an operation touches gets version {@link #index()} (or is deleted), so a batch is
 * recognisable as all-or-nothing: after recovery either every one of its keys shows its effect
 * or none does.
 *
 * @param index the thread's operation number, from 1; the version it writes
 * @param keys key indexes it touches, distinct
 * @param deletes per key, whether it is deleted rather than put
 * @param batch whether it is applied as one {@link WriteBatch} (else a single put or delete)
 */
record StressOp(int thread, long index, int[] keys, boolean[] deletes, boolean batch, boolean sync) {
  static StressOp generate(StressWorkload workload, int thread, long index) {
    SplittableRandom r = new SplittableRandom(StressKeys.Mix.of(workload.seed(), thread, index));
    int n = workload.keysPerThread();
    int roll = r.nextInt(100);
    boolean batch = roll >= 70;
    int count = batch ? 2 + r.nextInt(7) : 1;
    int[] keys = new int[count];
    boolean[] deletes = new boolean[count];
    for (int i = 0; i < count; i++) {
      int k;
      do {
        // A tenth of the keys take most writes: overwrites and tombstones for compaction to drop.
        k = r.nextInt(10) < 7 ? r.nextInt(Math.max(1, n / 10)) : r.nextInt(n);
      } while (contains(keys, i, k));
      keys[i] = k;
      deletes[i] = batch ? r.nextInt(5) == 0 : roll >= 55;
    }
    boolean sync = r.nextInt(100) < workload.syncPercent();
    return new StressOp(thread, index, keys, deletes, batch, sync);
  }

  private static boolean contains(int[] a, int len, int k) {
    for (int i = 0; i < len; i++) {
      if (a[i] == k) {
        return true;
      }
    }
    return false;
  }

  /** Applies the operation to the database; returns when the engine acknowledged it. */
  void applyTo(Cairn db) {
    WriteOptions options = sync ? WriteOptions.SYNC : WriteOptions.NO_SYNC;
    if (!batch) {
      byte[] key = StressKeys.key(thread, keys[0]);
      if (deletes[0]) {
        db.delete(key, options);
      } else {
        db.put(key, StressKeys.value(thread, keys[0], index), options);
      }
      return;
    }
    WriteBatch b = new WriteBatch();
    for (int i = 0; i < keys.length; i++) {
      byte[] key = StressKeys.key(thread, keys[i]);
      if (deletes[i]) {
        b.delete(key);
      } else {
        b.put(key, StressKeys.value(thread, keys[i], index));
      }
    }
    db.write(b, options);
  }

  /** Applies the operation to a model of the thread's keys. */
  void applyTo(KeyVersions model) {
    for (int i = 0; i < keys.length; i++) {
      model.set(keys[i], deletes[i] ? KeyVersions.ABSENT : index);
    }
  }

  @Override
  public String toString() {
    return "op{thread=" + thread + ", index=" + index + ", keys=" + Arrays.toString(keys)
        + ", deletes=" + Arrays.toString(deletes) + ", batch=" + batch + ", sync=" + sync + "}";
  }
}

package dev.cairn.e2e.stress;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.Options;
import dev.cairn.ReadOptions;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reopens a database after the stress process was killed and checks it against the expected
 * state. For each thread, the operations found applied must be exactly a prefix of the thread's
 * operation sequence ending at its last acknowledged operation or at the one after it (the only
 * one that can have been in flight: a thread issues its next write only after acknowledging
 * the previous one). So:
 * <ul>
 *   <li>every acknowledged write is present. The child is killed, not the machine: the OS keeps
 *       what the engine handed it, so this holds for unsynced writes too, not only synced ones;
 *   <li>nothing newer than what was issued appears, every value is one the thread wrote for that
 *       key, and a batch is there completely or not at all;
 *   <li>point reads and iterators agree, keys come in order, checksums verify.
 * </ul>
 */
final class CrashVerifier {
  private final StressWorkload workload;
  /** Per thread, the expected state after {@link #applied}[thread] operations. */
  private final KeyVersions[] expected;
  /** Per thread, how many of its operations the database is known to hold. */
  private final long[] applied;
  private long inFlightFoundApplied;
  private long tablesVerified;

  CrashVerifier(StressWorkload workload) {
    this.workload = workload;
    this.expected = new KeyVersions[workload.threads()];
    this.applied = new long[workload.threads()];
    for (int t = 0; t < workload.threads(); t++) {
      expected[t] = new KeyVersions(t, workload.keysPerThread());
    }
  }

  /** Per thread, the index of the next operation the stress process should issue. */
  long[] next() {
    return Arrays.stream(applied).map(a -> a + 1).toArray();
  }

  /** Operations that were in flight at the kill (issued, not acknowledged) and turned out applied. */
  long inFlightFoundApplied() {
    return inFlightFoundApplied;
  }

  long tablesVerified() {
    return tablesVerified;
  }

  /**
   * Opens the database with {@code options}, checks it, closes it, and advances the expected
   * state to what was found. Throws {@link StressFailure} naming what broke.
   */
  void verify(Path dir, Options options, long[] lastAck) {
    for (int t = 0; t < workload.threads(); t++) {
      for (long i = applied[t] + 1; i <= lastAck[t]; i++) {
        StressOp.generate(workload, t, i).applyTo(expected[t]);
      }
      applied[t] = Math.max(applied[t], lastAck[t]);
    }
    try (Cairn db = Cairn.open(dir, options)) {
      long liveKeys = 0;
      for (int t = 0; t < workload.threads(); t++) {
        KeyVersions found = KeyVersions.read(db, ReadOptions.DEFAULT, t, workload.keysPerThread());
        checkPointReadsAgree(db, found);
        matchPrefix(found);
        for (int k = 0; k < found.size(); k++) {
          liveKeys += found.get(k) == KeyVersions.ABSENT ? 0 : 1;
        }
      }
      checkFullIteration(db, liveKeys);
      tablesVerified += db.verifyChecksums();
    }
  }

  private void checkPointReadsAgree(Cairn db, KeyVersions viaIterator) {
    int t = viaIterator.thread();
    for (int k = 0; k < viaIterator.size(); k++) {
      long viaGet = KeyVersions.pointRead(db.get(StressKeys.key(t, k)), t, k);
      if (viaGet != viaIterator.get(k)) {
        throw new StressFailure("after recovery, get of thread " + t + " key " + k + " found version " + viaGet
            + " but the iterator found " + viaIterator.get(k));
      }
    }
  }

  private void matchPrefix(KeyVersions found) {
    int t = found.thread();
    if (found.equals(expected[t])) {
      return;
    }
    StressOp inFlight = StressOp.generate(workload, t, applied[t] + 1);
    KeyVersions withInFlight = expected[t].copy();
    inFlight.applyTo(withInFlight);
    if (found.equals(withInFlight)) {
      expected[t] = withInFlight;
      applied[t]++;
      inFlightFoundApplied++;
      return;
    }
    throw new StressFailure("after recovery, thread " + t + "'s keys are not the state after its last acknowledged"
        + " op " + applied[t] + " (" + found.diff(expected[t]) + ") nor after the op in flight " + inFlight
        + " (" + found.diff(withInFlight) + ")");
  }

  private void checkFullIteration(Cairn db, long liveKeys) {
    long count = 0;
    byte[] previous = null;
    try (CairnIterator it = db.iterator()) {
      for (it.seekToFirst(); it.isValid(); it.next(), count++) {
        byte[] key = it.key();
        if (previous != null && Arrays.compareUnsigned(previous, key) >= 0) {
          throw new StressFailure("after recovery, the full iterator returned " + new String(key) + " after "
              + new String(previous));
        }
        previous = key;
      }
    }
    if (count != liveKeys) {
      throw new StressFailure("after recovery, the full iterator returned " + count + " keys but the threads' ranges hold "
          + liveKeys);
    }
  }
}

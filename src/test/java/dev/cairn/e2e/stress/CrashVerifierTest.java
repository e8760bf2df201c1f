package dev.cairn.e2e.stress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash test is only as good as its verifier: each test here builds a database in one of the
 * states a broken engine could recover to and checks that the verifier rejects it (or accepts
 * the states a correct engine may recover to).
 */
class CrashVerifierTest {
  private static final StressWorkload WORKLOAD = new StressWorkload(7, 2, 40, 10);
  private static final Options OPTIONS = Options.builder().memtableBytes(64 << 10).build();

  @TempDir Path dir;

  @Test
  void acceptsTheStateAfterTheLastAcknowledgedOpOrAfterTheOneInFlight() {
    write(0, 1, 30);
    write(1, 1, 30);
    CrashVerifier verifier = new CrashVerifier(WORKLOAD);
    verifier.verify(dir, OPTIONS, new long[] {30, 30});
    assertArrayEquals(new long[] {31, 31}, verifier.next());

    int k = firstChangingOp(0, 31);
    write(0, 31, k);
    verifier.verify(dir, OPTIONS, new long[] {k - 1, 30});
    assertArrayEquals(new long[] {k + 1, 31}, verifier.next(), "the in-flight op was found applied");
    assertEquals(1, verifier.inFlightFoundApplied());
  }

  @Test
  void rejectsALostAcknowledgedWrite() {
    int k = firstChangingOp(0, 10);
    write(0, 1, k - 1);
    StressFailure f = assertThrows(StressFailure.class,
        () -> new CrashVerifier(WORKLOAD).verify(dir, OPTIONS, new long[] {k, 0}));
    assertTrue(f.getMessage().contains("thread 0"), f.getMessage());
  }

  @Test
  void rejectsAWriteNewerThanAnyIssued() {
    int k = firstChangingOp(0, 10);
    write(0, 1, k);
    // Acknowledged through k-2: k-1 may be in flight, k was never issued.
    assertThrows(StressFailure.class, () -> new CrashVerifier(WORKLOAD).verify(dir, OPTIONS, new long[] {k - 2, 0}));
  }

  @Test
  void rejectsAHalfAppliedBatch() {
    int k = firstChangingBatch(0, 10);
    write(0, 1, k - 1);
    StressOp batch = StressOp.generate(WORKLOAD, 0, k);
    try (Cairn db = Cairn.open(dir, OPTIONS)) {
      // Only the first key of the batch: the state a non-atomic batch could leave behind.
      StressOp firstKeyOnly = new StressOp(0, k, new int[] {batch.keys()[0]}, new boolean[] {batch.deletes()[0]},
          false, true);
      firstKeyOnly.applyTo(db);
    }
    StressFailure f = assertThrows(StressFailure.class,
        () -> new CrashVerifier(WORKLOAD).verify(dir, OPTIONS, new long[] {k - 1, 0}));
    assertTrue(f.getMessage().contains("op in flight"), f.getMessage());
  }

  @Test
  void rejectsAValueNeverWrittenForItsKey() {
    write(0, 1, 20);
    try (Cairn db = Cairn.open(dir, OPTIONS)) {
      db.put(StressKeys.key(0, 3), StressKeys.value(0, 4, 5));
    }
    StressFailure f = assertThrows(StressFailure.class,
        () -> new CrashVerifier(WORKLOAD).verify(dir, OPTIONS, new long[] {20, 0}));
    assertTrue(f.getMessage().contains("never written"), f.getMessage());
  }

  private void write(int thread, long from, long to) {
    try (Cairn db = Cairn.open(dir, OPTIONS)) {
      for (long i = from; i <= to; i++) {
        StressOp.generate(WORKLOAD, thread, i).applyTo(db);
      }
    }
  }

  /** The first op at or after {@code from} whose effect differs from both neighbours' states. */
  private static int firstChangingOp(int thread, int from) {
    for (int k = from; ; k++) {
      KeyVersions before = stateAfter(thread, k - 1);
      KeyVersions after = stateAfter(thread, k);
      KeyVersions afterNext = stateAfter(thread, k + 1);
      if (!before.equals(after) && !before.equals(afterNext) && !after.equals(afterNext)) {
        return k;
      }
    }
  }

  /** The first batch at or after {@code from} that changes at least two keys. */
  private static int firstChangingBatch(int thread, int from) {
    for (int k = from; ; k++) {
      StressOp op = StressOp.generate(WORKLOAD, thread, k);
      if (!op.batch()) {
        continue;
      }
      KeyVersions before = stateAfter(thread, k - 1);
      KeyVersions after = stateAfter(thread, k);
      int changed = 0;
      for (int key : op.keys()) {
        changed += before.get(key) != after.get(key) ? 1 : 0;
      }
      if (changed >= 2 && before.get(op.keys()[0]) != after.get(op.keys()[0])) {
        assertNotEquals(before, after);
        return k;
      }
    }
  }

  private static KeyVersions stateAfter(int thread, long ops) {
    KeyVersions state = new KeyVersions(thread, WORKLOAD.keysPerThread());
    for (long i = 1; i <= ops; i++) {
      StressOp.generate(WORKLOAD, thread, i).applyTo(state);
    }
    return state;
  }
}

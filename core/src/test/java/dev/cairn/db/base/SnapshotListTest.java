package dev.cairn.db.base;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SnapshotListTest {
  @Test
  void countsEachSequenceAsAMultiset() {
    SnapshotList list = new SnapshotList();
    list.add(7);
    list.add(7);
    list.add(3);
    assertArrayEquals(new long[] {3, 7}, list.sequencesAscending());
    list.remove(7);
    assertArrayEquals(new long[] {3, 7}, list.sequencesAscending(), "one of the two snapshots at 7 is open");
    list.remove(3);
    list.remove(7);
    assertArrayEquals(new long[] {}, list.sequencesAscending());
    assertEquals(-1, list.oldest(-1));
    assertEquals(0, list.size());
  }

  /**
   * One snapshot at a sequence closes while another opens at the same sequence: the one that
   * opened must stay registered (a compaction would otherwise drop the versions it reads).
   */
  @Test
  void aSnapshotOpenedWhileAnotherAtItsSequenceClosesStaysRegistered() throws InterruptedException {
    SnapshotList list = new SnapshotList();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<String> lost = new AtomicReference<>();
    Thread churn = new Thread(() -> {
      while (!stop.get()) {
        list.add(7);
        list.remove(7);
      }
    });
    churn.start();
    long deadline = System.nanoTime() + 2_000_000_000L;
    try {
      for (long i = 0; System.nanoTime() < deadline && lost.get() == null; i++) {
        list.add(7);
        if (list.oldest(-1) != 7) {
          lost.set("the open snapshot at 7 was missing from the registry after " + i + " rounds");
        }
        list.remove(7);
      }
    } finally {
      stop.set(true);
      churn.join();
    }
    assertNull(lost.get());
    assertEquals(-1, list.oldest(-1), "every snapshot closed");
  }
}

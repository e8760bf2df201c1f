package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.DatabaseClosedException;
import dev.cairn.util.ThreadStripes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class InFlightCallsTest {
  @Test
  void closeWaitsForEveryCallInFlightOnEveryStripe() throws Exception {
    InFlightCalls calls = new InFlightCalls("test");
    // More threads than stripes, so some share a stripe and every stripe holds a call.
    int threads = 2 * ThreadStripes.count() + 1;
    CountDownLatch entered = new CountDownLatch(threads);
    List<CountDownLatch> leave = new ArrayList<>();
    List<Thread> callers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      CountDownLatch mayLeave = new CountDownLatch(1);
      leave.add(mayLeave);
      Thread t = new Thread(() -> {
        calls.enter();
        try {
          entered.countDown();
          mayLeave.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          calls.exit();
        }
      });
      callers.add(t);
      t.start();
    }
    assertTrue(entered.await(10, TimeUnit.SECONDS));
    assertEquals(threads, calls.inFlight());

    calls.refuseNew();
    CountDownLatch drained = new CountDownLatch(1);
    Thread closer = new Thread(() -> {
      calls.awaitDrained();
      drained.countDown();
    });
    closer.start();
    // Let the calls out one at a time, last ones first: close must wait for the very last.
    for (int i = threads - 1; i >= 0; i--) {
      assertEquals(1, drained.getCount(), (i + 1) + " calls still in flight, close returned");
      leave.get(i).countDown();
      callers.get(i).join(10_000);
    }
    assertTrue(drained.await(10, TimeUnit.SECONDS), "close must return once no call is in flight");
    assertEquals(0, calls.inFlight());
  }

  @Test
  void aCallAfterCloseIsRefusedAndLeavesNothingCounted() throws Exception {
    InFlightCalls calls = new InFlightCalls("the test database");
    calls.refuseNew();
    DatabaseClosedException e = assertThrows(DatabaseClosedException.class, calls::enter);
    assertTrue(e.getMessage().contains("the test database"), e.getMessage());
    assertEquals(0, calls.inFlight());
    calls.awaitDrained(); // returns at once
  }
}

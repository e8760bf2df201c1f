package dev.cairn.db;

import dev.cairn.DatabaseClosedException;
import dev.cairn.util.ThreadStripes;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts the public calls running inside the engine, so that {@code close()} can refuse new ones
 * and wait for the ones in flight before it closes the log and releases the table and block
 * caches. Without it a writer could append to a log that close had just closed, or an iterator's
 * {@code next()} could open a table through a cache already released, and fail with whatever that
 * layer throws instead of {@link DatabaseClosedException}.
 *
 * <p>Thread-safe and cheap on the hot path: one atomic increment and decrement per call, on the
 * calling thread's own stripe of the count ({@link ThreadStripes}: with one shared counter every
 * read cost two cache-line transfers between the cores). The count is incremented before the
 * closed flag is read, and close sets the flag before it reads the count (all sequentially
 * consistent), so a call either sees the flag and backs out, or close sees the call and waits
 * for it.
 *
 * <p>Why close, summing the stripes one at a time, cannot read zero while a call is in flight: a
 * thread enters and exits on the same stripe, so no stripe ever holds less than the calls in
 * flight on its threads, and a call in flight throughout the sum keeps its stripe at one or more
 * when that stripe is read. A call that enters after its stripe was read finds the flag (set
 * before the sum began) and backs out on that same stripe.
 */
public final class InFlightCalls {
  /** Longs per stripe: 128 bytes apart, so no two stripes share a cache line or its pair. */
  private static final int SPACING = 16;

  private final int stripes = ThreadStripes.count();
  private final AtomicLongArray calls = new AtomicLongArray(stripes * SPACING);
  private final Object drained = new Object();
  private final String what;
  private volatile boolean closed;

  public InFlightCalls(String what) {
    this.what = what;
  }

  /** Starts a call; pair with {@link #exit()} in a finally block, on the same thread. */
  public void enter() {
    int slot = ThreadStripes.of(stripes) * SPACING;
    calls.incrementAndGet(slot);
    if (closed) {
      exitAt(slot);
      throw new DatabaseClosedException(what);
    }
  }

  /** Ends a call {@link #enter()} started on this thread. */
  public void exit() {
    exitAt(ThreadStripes.of(stripes) * SPACING);
  }

  private void exitAt(int slot) {
    calls.decrementAndGet(slot);
    if (closed) {
      // Close may be waiting: let it sum again. Only after close, so the hot path never locks.
      synchronized (drained) {
        drained.notifyAll();
      }
    }
  }

  /** Refuses calls from now on. Calls already in flight continue. */
  void refuseNew() {
    closed = true;
  }

  /** Requires: {@link #refuseNew()} called. Waits until no call is in flight. */
  void awaitDrained() {
    boolean interrupted = false;
    synchronized (drained) {
      while (inFlight() != 0) {
        try {
          drained.wait();
        } catch (InterruptedException e) {
          interrupted = true; // close must still finish; keep the interrupt for the caller
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Calls in flight: exact once {@link #refuseNew()} has returned and no call is entering. */
  long inFlight() {
    long sum = 0;
    for (int i = 0; i < stripes; i++) {
      sum += calls.get(i * SPACING);
    }
    return sum;
  }
}

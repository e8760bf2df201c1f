package dev.cairn.db;

import dev.cairn.DatabaseClosedException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the public calls running inside the engine, so that {@code close()} can refuse new ones
 * and wait for the ones in flight before it closes the log and releases the table and block
 * caches. Without it a writer could append to a log that close had just closed, or an iterator's
 * {@code next()} could open a table through a cache already released, and fail with whatever that
 * layer throws instead of {@link DatabaseClosedException}.
 *
 * <p>Thread-safe and cheap on the hot path: one atomic increment and decrement per call. The
 * count is incremented before the closed flag is read, and close sets the flag before it reads the
 * count (both sequentially consistent), so a call either sees the flag and backs out, or close
 * sees the call and waits for it.
 */
final class InFlightCalls {
  private final AtomicInteger calls = new AtomicInteger();
  private final Object drained = new Object();
  private final String what;
  private volatile boolean closed;

  InFlightCalls(String what) {
    this.what = what;
  }

  /** Starts a call; pair with {@link #exit()} in a finally block. */
  void enter() {
    calls.incrementAndGet();
    if (closed) {
      exit();
      throw new DatabaseClosedException(what);
    }
  }

  void exit() {
    if (calls.decrementAndGet() == 0 && closed) {
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
      while (calls.get() != 0) {
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
}

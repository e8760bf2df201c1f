package dev.cairn.db.base;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One database's tasks on threads several databases share: shutting it down refuses its new
 * tasks and waits for its own running ones, never for the others' nor the threads themselves.
 * {@link #shutdownNow()} also skips its tasks still queued (they would touch a database being
 * taken down).
 */
public final class TaskGroup extends AbstractExecutorService {
  private final Executor threads;

  // Guarded by this.
  private int unfinished;
  private boolean shutdown;
  private boolean abandoned;

  public TaskGroup(Executor threads) {
    this.threads = threads;
  }

  @Override
  public void execute(Runnable task) {
    synchronized (this) {
      if (shutdown) {
        throw new RejectedExecutionException("the database's background work is shut down");
      }
      unfinished++;
    }
    try {
      threads.execute(() -> {
        try {
          if (!isAbandoned()) {
            task.run();
          }
        } finally {
          finished();
        }
      });
    } catch (RejectedExecutionException e) {
      finished();
      throw e;
    }
  }

  private synchronized boolean isAbandoned() {
    return abandoned;
  }

  private synchronized void finished() {
    if (--unfinished == 0) {
      notifyAll();
    }
  }

  @Override
  public synchronized void shutdown() {
    shutdown = true;
  }

  @Override
  public synchronized List<Runnable> shutdownNow() {
    shutdown = true;
    abandoned = true;
    return List.of();
  }

  @Override
  public synchronized boolean isShutdown() {
    return shutdown;
  }

  @Override
  public synchronized boolean isTerminated() {
    return shutdown && unfinished == 0;
  }

  @Override
  public synchronized boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    while (!isTerminated()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return true;
  }
}

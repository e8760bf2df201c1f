package dev.cairn.db.base;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One database's periodic task (the compaction buffer's trim, DLC's load monitor, the idle
 * drain): on a timer thread of its own, or, for a database on shared resources, on the shared
 * timer thread ({@link SharedPools#timers()}), where the databases' ticks take turns. Each run
 * holds a lock that {@link #stop} takes, so that no run is in progress once it returns.
 */
public final class PeriodicTask {
  private final ScheduledExecutorService own; // null on the shared timer
  private final ScheduledFuture<?> future;
  private final ReentrantLock running = new ReentrantLock();
  private volatile boolean stopped;

  private PeriodicTask(ScheduledExecutorService timer, ScheduledExecutorService own, long periodMillis, Runnable body) {
    this.own = own;
    this.future = timer.scheduleWithFixedDelay(() -> {
      running.lock();
      try {
        if (!stopped) {
          body.run();
        }
      } finally {
        running.unlock();
      }
    }, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
  }

  /**
   * Runs {@code body} every {@code periodMillis} (the delay between the end of one run and the
   * start of the next), first after one period, until {@link #stop}; {@code name} names the
   * thread of its own where it has one.
   */
  public static PeriodicTask start(Engine engine, String name, long periodMillis, Runnable body) {
    if (engine.shared() != null) {
      return new PeriodicTask(engine.shared().timers(), null, periodMillis, body);
    }
    ScheduledExecutorService own = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, name + "-" + engine.dir().getFileName());
      t.setDaemon(true);
      return t;
    });
    return new PeriodicTask(own, own, periodMillis, body);
  }

  /**
   * No run starts after this returns; a run in progress is waited for, up to {@code waitMillis}
   * (a thread of its own is then interrupted).
   */
  public void stop(long waitMillis) {
    stopped = true;
    future.cancel(false);
    try {
      if (running.tryLock(waitMillis, TimeUnit.MILLISECONDS)) {
        running.unlock();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (own != null) {
      own.shutdownNow();
    }
  }
}

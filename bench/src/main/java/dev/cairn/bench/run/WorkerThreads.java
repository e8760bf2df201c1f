package dev.cairn.bench.run;

import dev.cairn.bench.engine.BenchEngine;
import dev.cairn.bench.workload.Values;
import dev.cairn.bench.workload.Worker;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The threads of one phase: one per {@link Worker}, each with its own seeded stream, paced or
 * closed-loop, until the phase's end, the worker's own end, or the first failure of any of them.
 */
final class WorkerThreads {
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  /**
   * Creates (not starts) the threads.
   *
   * @param seed thread i draws from a stream that is a function of {@code seed} and i alone
   * @param keyBytes the width of the keys the workers' ids become
   */
  WorkerThreads(List<Worker> workers, BenchEngine engine, Values values, OpCounters counters, long seed,
      int keyBytes, long startNanos, long stopAtNanos, String name) {
    for (int i = 0; i < workers.size(); i++) {
      Worker worker = workers.get(i);
      SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i);
      TimedOps ops = new TimedOps(engine, values, counters, random.split(), keyBytes);
      Thread t = new Thread(() -> runWorker(worker, ops, random, startNanos, stopAtNanos), name + "-" + i);
      t.setDaemon(true);
      threads.add(t);
    }
  }

  void start() {
    threads.forEach(Thread::start);
  }

  /** The first failure of a worker, or null. */
  Throwable failure() {
    return failure.get();
  }

  private void runWorker(Worker worker, TimedOps ops, SplittableRandom random, long start, long stopAt) {
    Pacer pacer = new Pacer(start);
    try {
      while (failure.get() == null && System.nanoTime() < stopAt) {
        double rate = worker.rate((System.nanoTime() - start) / 1e9);
        if (rate > 0 && !pacer.awaitNext(rate, stopAt)) {
          return;
        }
        if (!worker.step(ops, random)) {
          return;
        }
      }
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
    }
  }

  /** Sleeps until {@code deadline}, or until every worker has finished; false in the latter case. */
  boolean sleepUntil(long deadline) {
    while (System.nanoTime() < deadline) {
      if (threads.stream().noneMatch(Thread::isAlive)) {
        return false;
      }
      LockSupport.parkNanos(Math.min(deadline - System.nanoTime(), 20_000_000L));
    }
    return threads.stream().anyMatch(Thread::isAlive);
  }

  void join() {
    for (Thread t : threads) {
      try {
        t.join(60_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Throws if a worker failed: a failed phase fails the run. */
  void rethrowFailure() {
    Throwable t = failure.get();
    if (t != null) {
      throw new IllegalStateException("worker failed: " + t, t);
    }
  }
}

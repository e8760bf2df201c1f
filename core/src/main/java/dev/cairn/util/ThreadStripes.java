package dev.cairn.util;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stripe number for each thread, for the counters every read and write updates
 * (the engine's in-flight calls and latency recorders). Two threads that increment one shared atomic
 * pass its cache line between their cores on every operation; with a stripe each, they touch
 * lines of their own.
 *
 * <p>Threads are numbered in the order they first ask, so the first {@code n} threads never share
 * a stripe of an {@code n}-stripe counter (a hash of the thread id would put two readers on one
 * stripe one time in {@code n}, for the thread's life). Later threads wrap around and share a
 * stripe: still correct, as each stripe is itself atomic, only no longer uncontended.
 */
public final class ThreadStripes {
  private static final AtomicInteger NEXT = new AtomicInteger();
  private static final ThreadLocal<Integer> NUMBER = ThreadLocal.withInitial(NEXT::getAndIncrement);

  private ThreadStripes() {}

  /** The calling thread's stripe among {@code stripes}, a power of two. */
  public static int of(int stripes) {
    return NUMBER.get() & (stripes - 1);
  }

  /**
   * How many stripes a counter gets: twice the processors (threads beyond that are unlikely to
   * run at once), a power of two, at least 4 and at most 16 (a latency recorder's stripe is a
   * 27 KB histogram; past 16 busy threads, sharing a stripe between two costs less than that).
   */
  public static int count() {
    int wanted = 2 * Runtime.getRuntime().availableProcessors();
    return Math.min(16, Math.max(4, Integer.highestOneBit(wanted - 1) << 1));
  }
}

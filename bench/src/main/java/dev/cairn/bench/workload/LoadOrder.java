package dev.cairn.bench.workload;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The ids {@code [0, n)} in a seeded random order (Fisher-Yates), handed out once each; a random
 * insertion order gives the overlapping levels of a real tree, where a sorted load would only
 * move tables down untouched.
 */
public final class LoadOrder {
  private final int[] order;
  private final AtomicInteger next = new AtomicInteger();

  public LoadOrder(long n, long seed) {
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("cannot load " + n + " records; at most " + (Integer.MAX_VALUE - 8));
    }
    order = new int[(int) n];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = order.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  }

  /** The next id to insert, or -1 when all are handed out. */
  public long next() {
    int i = next.getAndIncrement();
    return i < order.length ? order[i] : -1;
  }

  /** Ids handed out so far. */
  public long handedOut() {
    return Math.min(next.get(), order.length);
  }

  public long size() {
    return order.length;
  }
}

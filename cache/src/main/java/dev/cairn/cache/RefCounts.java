package dev.cairn.cache;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reference counts that free what they count at zero and are never revived: a reader that found
 * a shared object in a lock-free map retains it only while it is still live, and looks again
 * otherwise (the cache's block memory, the table cache's readers).
 */
public final class RefCounts {
  private RefCounts() {}

  /** Adds a reference unless the count has reached zero (freed); returns whether it did. */
  public static boolean retainIfLive(AtomicInteger refs) {
    for (int r = refs.get(); r > 0; r = refs.get()) {
      if (refs.compareAndSet(r, r + 1)) {
        return true;
      }
    }
    return false;
  }
}

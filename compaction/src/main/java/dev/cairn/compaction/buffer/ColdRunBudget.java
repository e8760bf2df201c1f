package dev.cairn.compaction.buffer;

import java.util.function.LongSupplier;

/**
 * The trim's space budget for cold runs (docs/compaction.md, "Trim (Algorithm 2)"): a
 * cold run that lies over cached blocks of an older buffer run is kept, since its marker would
 * stop every walk over its range and hide those blocks, but only while the buffer's extra disk
 * space stays within a multiple of the block cache.
 */
public final class ColdRunBudget {
  private ColdRunBudget() {}

  /**
   * Whether this pass keeps cold runs over cached data: {@code budget > 0} and the buffer's extra
   * bytes (files only buffers still hold) at most {@code budget} times the cache's size. A zero
   * budget is the paper's trim, which keeps none. {@code bufferExtraBytes} walks every buffer of
   * the version, so it is asked for only when the budget is not zero.
   */
  public static boolean keepsColdRuns(double budget, LongSupplier bufferExtraBytes, long blockCacheBytes) {
    if (!(budget >= 0) || blockCacheBytes < 0) {
      throw new IllegalArgumentException("bad cold-run budget input: budget " + budget + ", cache " + blockCacheBytes);
    }
    if (budget == 0) {
      return false;
    }
    long extra = bufferExtraBytes.getAsLong();
    if (extra < 0) {
      throw new IllegalArgumentException("negative buffer extra bytes: " + extra);
    }
    return extra <= budget * blockCacheBytes;
  }
}

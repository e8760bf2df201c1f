package dev.cairn.compaction.adapt;

/**
 * A part of the tree's share of the table bytes as the reads saw it (for {@link
 * FlushCachingPolicy}, the fresh tables'): the mean, over the reads answered from tables in a
 * window, of the share the part held when each was answered. The share at the window's end
 * would misstate it: the part grows at each flush and shrinks at each compaction, and reads are
 * not spread evenly over time (none may come for a while, then many).
 *
 * <p>The caller counts reads with a running total (answered from tables since open), reports each
 * change of the share with the total at that moment ({@link #changed}), and starts each window
 * ({@link #restart}); reads counted between two changes weigh the share held between them. Not
 * thread-safe: the engine uses it under its mutex.
 */
public final class ReadWeightedShare {
  private long windowStartReads;
  private long lastChangeReads;
  private double share;
  /** Sum of the share each read since the window started saw, up to {@code lastChangeReads}. */
  private double weighted;

  /** A window starting at {@code reads} read so far, with the part holding {@code share} of the bytes. */
  public ReadWeightedShare(long reads, double share) {
    this.share = check(share);
    this.windowStartReads = reads;
    this.lastChangeReads = reads;
  }

  /** The part holds {@code share} of the table bytes from the {@code reads}-th read on. */
  public void changed(long reads, double share) {
    check(share);
    long since = reads - lastChangeReads;
    if (since > 0) {
      weighted += this.share * since;
      lastChangeReads = reads;
    }
    this.share = share;
  }

  /** The mean share the reads since the window's start saw, up to {@code reads}; the share now if none. */
  public double mean(long reads) {
    long inWindow = reads - windowStartReads;
    if (inWindow <= 0) {
      return share;
    }
    return (weighted + share * Math.max(0, reads - lastChangeReads)) / inWindow;
  }

  /** Starts a new window at {@code reads}, with {@code share} held from now on. */
  public void restart(long reads, double share) {
    this.share = check(share);
    windowStartReads = reads;
    lastChangeReads = reads;
    weighted = 0;
  }

  private static double check(double share) {
    if (!(share >= 0 && share <= 1)) {
      throw new IllegalArgumentException("a share of the table bytes must lie in [0, 1], got " + share);
    }
    return share;
  }
}

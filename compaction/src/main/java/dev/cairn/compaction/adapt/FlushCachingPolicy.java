package dev.cairn.compaction.adapt;

/**
 * Whether a flush puts the blocks it writes into the block cache, decided from where point reads
 * find their keys. Caching a flush's blocks pays when reads ask for what was just written (the
 * "Latest" workloads: their first reads of a new table then hit instead of reading back each
 * block) and costs cache room otherwise.
 *
 * <p><b>The evidence.</b> A window runs from one decision to the next, and its <em>fresh</em>
 * tables are those flushed since it began (the flush right after a decision writes the first).
 * What tells the two cases apart is the fresh tables' share of the reads answered from tables
 * against their share of the table bytes: where reads do not favour new data (uniform or Zipfian
 * reads over updates spread over the keys), a key's newest version is in a fresh table about as
 * often as their share of the data says, so the ratio, the <em>recency</em>, is near 1; where
 * reads follow the writes it is several times that. It reads the same whether the flushes cache
 * their blocks or not (caching changes which reads hit, not where they find their key), so the
 * decision does not feed its own evidence. Only the tables flushed within the window count, not
 * all of L0: right after a bulk load L0 holds half the data, written before any read, and reads
 * find their keys there at that share whatever they follow (docs/results/issue57/auto2-round1
 * and auto3-round1).
 *
 * <p><b>A window's verdict.</b> With some reads answered from tables but fewer than {@code
 * minReads} it says nothing yet ({@link Verdict#WAIT}): the caller keeps counting into the next
 * flush. With none (writes alone, as in a bulk load, whose tables are no news to the reads that
 * follow), with no fresh table for its reads to find, or with fresh tables holding more than
 * {@code 1 / onAbove} of the data, so that it could not have said "on" whatever the reads follow
 * (a recency is at most 1 over the share), it is dropped ({@link Verdict#DROP}) and the caller
 * starts a new one. Otherwise
 * it counts: the choice flips after {@code windowsToChange} counted windows in a row point the
 * other way, to caching above {@code onAbove}, back to not caching below {@code offBelow}. The
 * gap between the two is the hysteresis; one window is enough by default, as a window is a whole
 * memtable's worth of writes and at least a thousand reads (a second window cost the Latest
 * workloads a third of their run on the slow device: docs/results/issue57/auto1/). Immutable;
 * the state is a value the caller keeps.
 *
 * @param onAbove the recency above which the flushes start caching their blocks
 * @param offBelow the recency below which they stop; at most {@code onAbove}
 * @param windowsToChange how many windows in a row must point the other way
 * @param minReads the answered reads a window needs to count
 */
public record FlushCachingPolicy(double onAbove, double offBelow, int windowsToChange, long minReads) {
  public FlushCachingPolicy {
    if (!(offBelow > 0 && offBelow <= onAbove && Double.isFinite(onAbove))) {
      throw new IllegalArgumentException("flush caching thresholds must satisfy 0 < offBelow <= onAbove, got off "
          + offBelow + ", on " + onAbove);
    }
    if (windowsToChange < 1 || minReads < 0) {
      throw new IllegalArgumentException("flush caching needs windowsToChange >= 1 and minReads >= 0, got "
          + windowsToChange + ", " + minReads);
    }
  }

  /** Caching from three times the fresh tables' share of the reads, off again below one and a half. */
  public static FlushCachingPolicy defaults() {
    return new FlushCachingPolicy(3.0, 1.5, 1, 1000);
  }

  /**
   * What one window saw.
   *
   * @param freshAnswered point reads answered from the window's fresh tables
   * @param tableAnswered point reads answered from tables, all levels (the memtables' not counted)
   * @param freshShare the fresh tables' share of the table bytes as those reads saw it ({@link
   *     ReadWeightedShare})
   */
  public record Window(long freshAnswered, long tableAnswered, double freshShare) {
    public Window {
      if (freshAnswered < 0 || tableAnswered < freshAnswered || !(freshShare >= 0 && freshShare <= 1)) {
        // The parameters, not this: a compact constructor assigns the fields after its body.
        throw new IllegalArgumentException("inconsistent flush caching window: freshAnswered=" + freshAnswered
            + ", tableAnswered=" + tableAnswered + ", freshShare=" + freshShare);
      }
    }

    /** The fresh tables' share of the answered reads over their share of the bytes; NaN when either is undefined. */
    public double recency() {
      if (tableAnswered == 0 || freshShare == 0) {
        return Double.NaN;
      }
      return ((double) freshAnswered / tableAnswered) / freshShare;
    }
  }

  /** What a window is worth as evidence. */
  public enum Verdict {
    /** Too few reads yet: keep counting into the next window. */
    WAIT,
    /** It could only have said "off": drop it and start a new window. */
    DROP,
    /** Evidence: it may move the choice. */
    COUNTS
  }

  /**
   * The choice and the evidence it stands on.
   *
   * @param caching whether flushes cache their blocks
   * @param against windows in a row that pointed the other way
   * @param recency the last counted window's recency; NaN before one
   * @param switches how often the choice flipped
   */
  public record State(boolean caching, int against, double recency, long switches) {
    public static State initial(boolean caching) {
      return new State(caching, 0, Double.NaN, 0);
    }
  }

  /** {@code window}'s verdict (see the class comment). */
  public Verdict judge(Window window) {
    if (window.tableAnswered() == 0) {
      return Verdict.DROP; // nothing to carry over: writes alone, as in a bulk load
    }
    if (window.tableAnswered() < minReads) {
      return Verdict.WAIT;
    }
    if (Double.isNaN(window.recency()) || window.freshShare() * onAbove > 1) {
      return Verdict.DROP;
    }
    return Verdict.COUNTS;
  }

  /** The state after {@code window}; {@code state} itself unless the window counts. */
  public State next(State state, Window window) {
    if (judge(window) != Verdict.COUNTS) {
      return state;
    }
    double recency = window.recency();
    boolean otherWay = state.caching() ? recency < offBelow : recency > onAbove;
    if (!otherWay) {
      return new State(state.caching(), 0, recency, state.switches());
    }
    if (state.against() + 1 >= windowsToChange) {
      return new State(!state.caching(), 0, recency, state.switches() + 1);
    }
    return new State(state.caching(), state.against() + 1, recency, state.switches());
  }
}

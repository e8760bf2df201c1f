package dev.cairn.compaction.adapt;

/**
 * Whether a flush puts the blocks it writes into the block cache, decided from where point reads
 * find their keys. Caching a flush's blocks pays when reads ask for what was just written (the
 * "Latest" workloads: their first reads of a new table then hit instead of reading back each
 * block) and costs cache room otherwise. What tells the two apart is L0's share of the answered
 * reads against its share of the table bytes: where reads do not favour new data (uniform or
 * Zipfian reads over updates spread over the keys), a key's newest version is in L0 about as
 * often as L0's share of the data says, so the ratio, the <em>recency</em>, is near 1; where
 * reads follow the writes it is several times that. It reads the same whether the flushes cache
 * their blocks or not (caching changes which reads hit, not where they find their key), so the
 * decision does not feed its own evidence.
 *
 * <p>A window is the interval between two flushes. A window with fewer than {@code minReads}
 * reads answered from tables, whose reads never saw an L0 table, or whose L0 held too much of the
 * data for its recency to reach {@code onAbove}, does not {@link #counts count}: the caller keeps
 * counting into the next one. The choice flips after {@code windowsToChange} counted windows in a
 * row point the other way: to caching above {@code onAbove}, back to not caching below {@code
 * offBelow}. The gap between the two is the hysteresis; one window is enough by default, as a
 * window is a whole memtable's worth of writes and at least a thousand reads (a second window
 * cost the Latest workloads a third of their run on the slow device:
 * docs/results/issue57/auto1/). Immutable; the state is a value the caller keeps.
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

  /** Caching from three times L0's share of the reads, off again below one and a half. */
  public static FlushCachingPolicy defaults() {
    return new FlushCachingPolicy(3.0, 1.5, 1, 1000);
  }

  /**
   * What one window between two flushes saw.
   *
   * @param l0Answered point reads answered from L0 tables
   * @param tableAnswered point reads answered from tables, all levels (the memtables' not counted)
   * @param l0Share L0's share of the table bytes as those reads saw it ({@link ReadWeightedShare})
   */
  public record Window(long l0Answered, long tableAnswered, double l0Share) {
    public Window {
      if (l0Answered < 0 || tableAnswered < l0Answered || !(l0Share >= 0 && l0Share <= 1)) {
        throw new IllegalArgumentException("inconsistent flush caching window: " + this);
      }
    }

    /** L0's share of the answered reads over its share of the bytes; NaN when either is undefined. */
    public double recency() {
      if (tableAnswered == 0 || l0Share == 0) {
        return Double.NaN;
      }
      return ((double) l0Answered / tableAnswered) / l0Share;
    }
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

  /**
   * Whether {@code window} is evidence: enough reads, L0 tables to have answered them, and L0 small
   * enough that its recency could have passed {@code onAbove}. A recency is at most 1 over L0's
   * share of the bytes, so while L0 holds more than {@code 1 / onAbove} of them (after a bulk load,
   * or while compactions catch up) a window could only ever say "off", whatever the reads follow.
   */
  public boolean counts(Window window) {
    return window.tableAnswered() >= minReads && !Double.isNaN(window.recency())
        && window.l0Share() * onAbove <= 1;
  }

  /** The state after {@code window}; {@code state} itself when the window does not count. */
  public State next(State state, Window window) {
    if (!counts(window)) {
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

package dev.cairn.cache;

/**
 * How large one {@link ClockBlockTable} shard's window should be, judged by what comes back
 * (docs/decisions/0017). The shard tells it of every insert ({@link #onInsert}) and of every
 * block its window's exit turned away ({@link #refused}) or its ring gave up ({@link #ejected});
 * {@link #capacity} is the window's capacity in bytes now.
 *
 * <p><b>The rule.</b> Each block turned away and each block given up is remembered ({@link
 * EvictedHashes}); an insert of one of them within {@value #RETURN_HORIZON} times as many inserts
 * as the window holds blocks is a return. If turned-away blocks return at a higher rate (returns
 * per eviction of their kind) than given-up ones, admission is refusing blocks worth more than
 * those it evicts, and the window, which keeps every block for a while, should be larger; if at a
 * lower rate, smaller. So a return of the first kind pushes the window's capacity up by the
 * block's weight times the ratio of recent ejections to recent refusals, one of the second kind
 * down by the weight: the expected push is then the ejections times the difference of the two
 * rates. The counts are halved every shard's worth of inserts (at least {@value
 * #MIN_RATE_PERIOD}). The window moves once the push reaches a {@value #MOVE_DIVISOR}th of the
 * shard, by the whole push, and stays between its bounds: each move turns blocks into the ring
 * or out of it without admission (the shard's eviction loop), so moves back and forth on noise
 * would cost the sketch its say.
 *
 * <p><b>Why rates and not ARC's counts.</b> Under TinyLFU most candidates are turned away, so
 * turned-away blocks return more often by count even when admission is right. On traces
 * (docs/decisions/0017) counts grew the window on a steady Zipfian, costing up to 3.5 points of
 * hit ratio, and after a phase of new blocks kept it at its largest, 7 to 8 points below the
 * fixed window's.
 *
 * <p>Not thread-safe: a shard uses its own under its lock.
 */
final class WindowSizer {
  /** The window moves once returns push it by this fraction of its shard. */
  static final int MOVE_DIVISOR = 64;
  /** A return counts within this many times the window's blocks in inserts. */
  static final int RETURN_HORIZON = 16;
  /** The fewest inserts between two halvings of the eviction counts. */
  static final int MIN_RATE_PERIOD = 64;

  private final long shardCapacity;
  private final long minWindow;
  private final long maxWindow;
  private long windowCapacity;
  /** Weight of returns since the window last moved: refused ones up, ejected ones down. */
  private long push;
  /** Inserts so far: the clock of the two lists. */
  private long inserts;
  /** Refusals and ejections lately, halved every shard's worth of inserts. */
  private long refusals;
  private long ejections;
  /** Blocks the window's exit turned away, and blocks the ring gave up: ARC's two ghost lists. */
  private final EvictedHashes refused = new EvictedHashes();
  private final EvictedHashes ejected = new EvictedHashes();

  /** A window of {@code minWindow} bytes at first, kept between the bounds (equal: fixed). */
  WindowSizer(long shardCapacity, long minWindow, long maxWindow) {
    this.shardCapacity = shardCapacity;
    this.minWindow = minWindow;
    this.maxWindow = maxWindow;
    this.windowCapacity = minWindow;
  }

  /** The window's capacity in bytes now. */
  long capacity() {
    return windowCapacity;
  }

  /**
   * A block of {@code hash} and {@code weight} is being inserted: if it returns, the window may
   * move. {@code entries} counts the shard's blocks with it, {@code windowBlocks} the window's
   * with it.
   */
  void onInsert(long hash, long weight, int entries, int windowBlocks) {
    refused.ensureCapacity(entries);
    ejected.ensureCapacity(entries);
    inserts++;
    if (inserts % Math.max(MIN_RATE_PERIOD, entries) == 0) { // forget the old evictions' weight
      refusals = (refusals + 1) / 2;
      ejections = (ejections + 1) / 2;
    }
    long horizon = RETURN_HORIZON * Math.max(1, windowBlocks);
    if (refused.remove(hash, inserts, horizon)) {
      push += weight * Math.max(1, ejections) / Math.max(1, refusals);
    } else if (ejected.remove(hash, inserts, horizon)) {
      push -= weight;
    } else {
      return;
    }
    if (Math.abs(push) >= shardCapacity / MOVE_DIVISOR) {
      windowCapacity = Math.max(minWindow, Math.min(maxWindow, windowCapacity + push));
      push = 0;
    }
  }

  /** The window's exit turned the block of {@code hash} away. */
  void refused(long hash) {
    refused.add(hash, inserts);
    refusals++;
  }

  /**
   * The ring gave the block of {@code hash} up for a written block: remembered, so that its
   * return pushes the window down, but not counted in the rates, which judge what admission let in.
   */
  void givenUpForWritten(long hash) {
    ejected.add(hash, inserts);
  }

  /** The ring gave the block of {@code hash} up for room. */
  void ejected(long hash) {
    ejected.add(hash, inserts);
    ejections++;
  }
}

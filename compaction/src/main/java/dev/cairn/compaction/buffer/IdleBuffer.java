package dev.cairn.compaction.buffer;

/**
 * Whether a level's buffer still serves reads (docs/compaction.md, "The space bound (how the
 * buffer grows and shrinks)"): the trim drops a level's whole buffer, its newest run included,
 * once no point read has been answered by it for {@code idleMillis}. The cache alone cannot tell:
 * with no reads nothing is evicted, so blocks cached earlier would keep every part they hold
 * "hot" forever. One per level, trim-confined soft state (a reopen starts every level afresh).
 *
 * @param servedAtLastChange the level's count of reads its buffer served when it last moved
 * @param lastChangeMillis when that count last moved (or when watching began)
 */
public record IdleBuffer(long servedAtLastChange, long lastChangeMillis) {
  /** Watching begins at {@code nowMillis} with {@code served} reads counted so far. */
  public static IdleBuffer watching(long served, long nowMillis) {
    return new IdleBuffer(served, nowMillis);
  }

  /** The state after a pass that saw the level's buffer serve {@code served} reads in all, at {@code nowMillis}. */
  public IdleBuffer atPass(long served, long nowMillis) {
    return served != servedAtLastChange ? new IdleBuffer(served, nowMillis) : this;
  }

  /** Whether the buffer has served no read for at least {@code idleMillis} by {@code nowMillis}. */
  public boolean idle(long nowMillis, long idleMillis) {
    return nowMillis - lastChangeMillis >= idleMillis;
  }
}

package dev.cairn.compaction.buffer;

import dev.cairn.model.UserKeyOrder;

/**
 * One level's state in LSbM's freeze on repeated data (section 4.1): the bytes merged into the
 * level since its merge-down round began, and whether its buffer is frozen (merges into it append
 * nothing) until the round ends.
 *
 * <p>The paper's test: "if the size of C_{i+1} is smaller than the data compacted into it, then
 * there must exist repeated data". The data compacted into a level is counted from the start of
 * its round (its compaction pointer's last wrap, {@link #pointerWrapped}), and its size is the
 * level's size after the merge. A bLSM level starts each round empty, so there the test is
 * "merged in more than it grew"; a leveled level keeps its data across rounds, so comparing with
 * its growth instead would call every update of an existing key repeated and freeze the upper
 * levels of any update workload for good (measured: levels 1 and 2 frozen after the first rounds
 * of {@code cairn demo --compaction-style BUFFER}, 4 appends in 182k overwrites). The last level
 * never merges down, so under updates it freezes once a level's worth has been merged into it, as
 * the paper's B_3 does.
 *
 * @param mergedInBytes bytes merged into the level since its round began
 * @param frozen whether the level's buffer is frozen for the rest of the round
 */
public record FreezeRound(long mergedInBytes, boolean frozen) {
  /** A level at the start of a round (and every level at open: the state is soft). */
  public static final FreezeRound NEW = new FreezeRound(0, false);

  public FreezeRound {
    if (mergedInBytes < 0) {
      throw new IllegalArgumentException("merged-in bytes must be >= 0: " + mergedInBytes);
    }
  }

  /**
   * Whether moving a level's compaction pointer from {@code previous} (null: none yet) to {@code
   * next} wraps it around the key space, which ends the level's merge-down round.
   */
  public static boolean pointerWrapped(byte[] previous, byte[] next) {
    return previous == null || UserKeyOrder.compare(next, previous) <= 0;
  }

  /**
   * The round after a merge of {@code inputBytes} into the level, which then holds {@code
   * levelBytesAfter}: frozen once the bytes merged in this round exceed {@code (1 + tolerance)}
   * times the level's size; an infinite tolerance never freezes. Freezing is for the rest of the
   * round.
   */
  public FreezeRound afterMerge(long inputBytes, long levelBytesAfter, double tolerance) {
    if (inputBytes < 0 || levelBytesAfter < 0 || !(tolerance >= 0)) {
      throw new IllegalArgumentException("bad merge: input " + inputBytes + ", level after "
          + levelBytesAfter + ", tolerance " + tolerance);
    }
    long merged = mergedInBytes + inputBytes;
    return new FreezeRound(merged, frozen || merged > (1 + tolerance) * levelBytesAfter);
  }
}

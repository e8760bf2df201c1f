package dev.cairn.compaction;

import java.util.Comparator;
import java.util.Locale;

/**
 * How urgently a level needs compaction; 1.0 or more means due. L0: file count over the trigger.
 * L1 and deeper: bytes over the level's limit.
 *
 * @param level the level scored
 * @param score the ratio; never negative
 * @param current L0: file count; deeper: bytes in the level
 * @param limit L0: the trigger; deeper: the level's size limit in bytes
 */
public record LevelScore(int level, double score, long current, long limit) {

  /** Highest score first; on a tie the shallower level, as LevelDB's {@code Finalize} does. */
  public static final Comparator<LevelScore> MOST_URGENT_FIRST =
      Comparator.comparingDouble(LevelScore::score).reversed().thenComparingInt(LevelScore::level);

  public boolean isDue() {
    return score >= 1.0;
  }

  /** The score as a plan's reason gives it: "L0 score 1.25: 5 files, trigger 4", "L2 score 1.10: ...". */
  public String describe() {
    if (level == 0) {
      return String.format(Locale.ROOT, "L0 score %.2f: %d files, trigger %d", score, current, limit);
    }
    return String.format(Locale.ROOT, "L%d score %.2f: %s of %s", level, score, ByteSizes.format(current),
        ByteSizes.format(limit));
  }
}

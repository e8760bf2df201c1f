package dev.cairn.compaction.leveled;

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

  public boolean isDue() {
    return score >= 1.0;
  }
}

package dev.cairn.compaction;

import dev.cairn.model.LsmShape;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a shape into the next compaction worth running, or none. Pure: same shape and running
 * compactions, same answer; no I/O, no clock.
 */
public interface CompactionPicker {

  /**
   * The most urgent plan that may run alongside {@code running}, if any compaction is due.
   *
   * @param running the compactions in flight; the returned plan is {@linkplain
   *     RunningCompactions#allows allowed} by them
   */
  Optional<CompactionPlan> pick(LsmShape shape, RunningCompactions running);

  /**
   * The same, for a caller that keeps only the ids of files that running compactions read or
   * replace: their key ranges are inferred from the shape, conservatively, which is sound only
   * while every id belongs to a plan this picker made (see {@link
   * RunningCompactions#fromBusyFiles}). Prefer passing the plans.
   */
  default Optional<CompactionPlan> pick(LsmShape shape, Set<Long> busy) {
    return pick(shape, RunningCompactions.fromBusyFiles(shape, busy));
  }

  /**
   * Aggressive compaction (dLSM section VI, for when writes have stopped): the next plan that moves
   * data towards the deepest level holding any, whatever the sizes, alongside {@code running}.
   * Every level (or two-phase pair) with a file above that level counts as due; the picker's
   * own rules choose the plan. Empty once all data is in one level, or while what is left
   * conflicts with {@code running}.
   */
  Optional<CompactionPlan> pickDraining(LsmShape shape, RunningCompactions running);

  /**
   * How urgently each level that can compact into a deeper one ({@code 0..numLevels-2}) needs
   * it, for statistics; 1 or more is due.
   */
  List<LevelScore> scores(LsmShape shape);

  /**
   * One bounded step of a manual compaction of {@code level} into {@code level + 1} over {@code
   * [fromUserKey, toUserKey]} (null = open), or empty when nothing there overlaps the range or
   * the step conflicts with {@code running}. The caller installs each step and asks again with
   * the same range until the level holds nothing in it.
   */
  Optional<CompactionPlan> planManual(
      LsmShape shape, int level, byte[] fromUserKey, byte[] toUserKey, RunningCompactions running);

  /**
   * Every plan startable now alongside {@code running}, most preferred first; {@link #pick}'s
   * answer is the first. For a decorator that chooses among the due compactions by something the
   * picker does not see, such as how hot each plan's files are. A picker that ranks no
   * alternatives lists its one pick.
   */
  default List<CompactionPlan> candidates(LsmShape shape, RunningCompactions running) {
    return pick(shape, running).stream().toList();
  }
}

package dev.cairn.compaction;

import dev.cairn.compaction.model.LsmShape;
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
}

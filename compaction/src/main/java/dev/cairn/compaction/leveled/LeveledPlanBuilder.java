package dev.cairn.compaction.leveled;

import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.RunningCompactions;
import dev.cairn.model.FileDescriptor;
import dev.cairn.model.KeyRange;
import dev.cairn.model.LsmShape;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Grows chosen seed files into a whole leveled compaction: LevelDB's {@code
 * GetOverlappingInputs} for L0 and {@code SetupOtherInputs} (targets, the "expand" step,
 * grandparents), plus the trivial-move test of {@code Compaction::IsTrivialMove}. Public for
 * pickers that lay levels out differently but compact a level into the next the same way
 * ({@link dev.cairn.compaction.dlsm.TwoPhaseCompactionPicker}).
 */
public final class LeveledPlanBuilder {
  private final LeveledConfig config;

  public LeveledPlanBuilder(LeveledConfig config) {
    this.config = config;
  }

  /**
   * Files of L0 overlapping {@code [smallest, largest]} (null = open), expanded until closed:
   * whenever a file reaches beyond the range, the range grows and the search restarts. Without
   * this, a compaction could carry a newer version of a key into L1 while an older version stays
   * in L0, where reads (newest L0 first) would find it before L1's.
   *
   * @return the files in L0's order, newest first
   */
  public static List<FileDescriptor> closedL0Overlap(LsmShape shape, byte[] smallest, byte[] largest) {
    List<FileDescriptor> level0 = shape.files(0);
    byte[] lo = smallest;
    byte[] hi = largest;
    boolean grew = true;
    while (grew) {
      grew = false;
      for (FileDescriptor f : level0) {
        if (!f.overlaps(lo, hi)) {
          continue;
        }
        if (lo != null && f.compareSmallestTo(lo) < 0) {
          lo = f.smallestKey();
          grew = true;
        }
        if (hi != null && f.compareLargestTo(hi) > 0) {
          hi = f.largestKey();
          grew = true;
        }
      }
    }
    List<FileDescriptor> result = new ArrayList<>();
    for (FileDescriptor f : level0) {
      if (f.overlaps(lo, hi)) {
        result.add(f);
      }
    }
    return result;
  }

  /** Files of {@code level} that a compaction of {@code range} must take: closed for L0. */
  static List<FileDescriptor> overlappingForInput(LsmShape shape, int level, KeyRange range) {
    return level == 0
        ? closedL0Overlap(shape, range.smallest(), range.largest())
        : shape.overlapping(level, range.smallest(), range.largest());
  }

  /**
   * The plan that compacts {@code seeds} (and whatever they drag along) from {@code level} into
   * {@code level + 1}, or empty if it may not run alongside {@code running}: a file it must read
   * or replace is busy, or its input or output range meets a range a running compaction holds.
   *
   * @param seeds the files chosen first; for L0 they are closed over overlap here
   * @param allowTrivialMove false for manual compactions, which exist to rewrite data
   */
  public Optional<CompactionPlan> build(
      LsmShape shape,
      int level,
      List<FileDescriptor> seeds,
      RunningCompactions running,
      boolean allowTrivialMove,
      String reason) {
    return build(shape, level, seeds, running, allowTrivialMove, reason, level + 2);
  }

  /**
   * {@link #build(LsmShape, int, List, RunningCompactions, boolean, String)} with the level whose
   * files cut the outputs (and bound a trivial move) named: the level the output level's data
   * will be merged into next, {@code level + 2} in a leveled tree. None if it is past the last.
   */
  public Optional<CompactionPlan> build(
      LsmShape shape,
      int level,
      List<FileDescriptor> seeds,
      RunningCompactions running,
      boolean allowTrivialMove,
      String reason,
      int grandparentLevel) {
    List<FileDescriptor> inputs =
        level == 0 ? overlappingForInput(shape, 0, KeyRange.spanning(seeds)) : List.copyOf(seeds);
    KeyRange inputRange = KeyRange.spanning(inputs);
    List<FileDescriptor> targets = overlappingRange(shape, level + 1, inputRange);
    if (!running.allows(level, inputs, targets)) {
      return Optional.empty();
    }

    if (!targets.isEmpty()) {
      // LevelDB's "expand": take more files of this level if that does not pull in more targets
      // and the compaction stays bounded. It merges the same target bytes with more input bytes,
      // so the write amplification of this compaction falls.
      KeyRange all = inputRange.span(KeyRange.spanning(targets));
      List<FileDescriptor> expanded = overlappingForInput(shape, level, all);
      if (expanded.size() > inputs.size()
          && totalBytes(expanded) + totalBytes(targets) < config.maxExpandedBytes()) {
        KeyRange expandedRange = KeyRange.spanning(expanded);
        List<FileDescriptor> expandedTargets = overlappingRange(shape, level + 1, expandedRange);
        // The wider input range may now cover a key gap where a running compaction writes, so
        // the expanded plan is checked as a whole, not only its new files.
        if (expandedTargets.size() == targets.size()
            && running.allows(level, expanded, expandedTargets)) {
          inputs = expanded;
          inputRange = expandedRange;
          targets = expandedTargets;
        }
      }
    }

    KeyRange whole = targets.isEmpty() ? inputRange : inputRange.span(KeyRange.spanning(targets));
    List<FileDescriptor> grandparents =
        grandparentLevel < shape.numLevels() ? overlappingRange(shape, grandparentLevel, whole) : List.of();
    boolean trivial =
        allowTrivialMove
            && inputs.size() == 1
            && targets.isEmpty()
            // A moved file that overlaps much of the grandparent level would make its own next
            // compaction huge; rewriting it now cuts it at grandparent boundaries instead.
            && totalBytes(grandparents) <= config.maxGrandparentOverlapBytes();
    return Optional.of(
        new CompactionPlan(
            trivial ? CompactionKind.TRIVIAL_MOVE : CompactionKind.TABLE_MERGE,
            level,
            level + 1,
            inputs,
            targets,
            grandparents,
            inputRange.largest(),
            !shape.hasDataBelow(level + 1, whole),
            config.outputLimits(),
            reason));
  }

  private static List<FileDescriptor> overlappingRange(LsmShape shape, int level, KeyRange range) {
    return shape.overlapping(level, range.smallest(), range.largest());
  }

  public static long totalBytes(List<FileDescriptor> files) {
    long total = 0;
    for (FileDescriptor f : files) {
      total += f.sizeBytes();
    }
    return total;
  }
}

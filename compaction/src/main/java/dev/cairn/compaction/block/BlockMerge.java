package dev.cairn.compaction.block;

import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPlan;

/** Which leveled plans block compaction executes as a block merge. */
public final class BlockMerge {
  private BlockMerge() {}

  /**
   * Whether block compaction runs {@code plan} as a block merge (choosing, per target, append or
   * rewrite with {@link SelectiveCompactionRule}): a table merge that has targets and does not
   * come out of L0. A trivial move writes nothing, a merge into an empty range has no table to
   * append to, and DLC's L0-to-L0 merge has no targets; each of those runs as table compaction.
   * So does a merge out of L0 (unless {@code config.forceBlock()}): the rule rewrites every one of
   * its targets ({@link TargetChoice.Reason#FROM_L0}), and one table compaction writes them as one
   * stream cut at the grandparents' boundaries, where rewriting target by target would cut the
   * output at every target's end as well (measured: docs/results/issue20 {@code mem-load/}).
   */
  public static boolean runsAsBlockMerge(CompactionPlan plan, BlockCompactionConfig config) {
    return plan.kind() == CompactionKind.TABLE_MERGE && !plan.targets().isEmpty()
        && (plan.inputLevel() != 0 || config.forceBlock());
  }
}

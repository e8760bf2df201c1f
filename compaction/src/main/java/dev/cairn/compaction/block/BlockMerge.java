package dev.cairn.compaction.block;

import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPlan;

/** Which leveled plans block compaction executes as a block merge. */
public final class BlockMerge {
  private BlockMerge() {}

  /**
   * Whether block compaction runs {@code plan} as a block merge (choosing, per target, append or
   * rewrite with {@link SelectiveCompactionRule}): a table merge that has targets. A trivial
   * move writes nothing, a merge into an empty range has no table to append to, and DLC's
   * L0-to-L0 merge has no targets; each of those runs as table compaction.
   */
  public static boolean runsAsBlockMerge(CompactionPlan plan) {
    return plan.kind() == CompactionKind.TABLE_MERGE && !plan.targets().isEmpty();
  }
}

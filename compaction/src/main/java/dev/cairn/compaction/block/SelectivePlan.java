package dev.cairn.compaction.block;

import dev.cairn.compaction.CompactionPlan;
import java.util.List;

/**
 * A {@link CompactionPlan} together with the choice made for each of its targets, in the plan's
 * target order. A companion rather than a field of the plan: the picker plans before core has
 * measured dirty blocks, which needs the targets' indexes.
 */
public record SelectivePlan(CompactionPlan plan, List<TargetChoice> choices) {
  public SelectivePlan {
    choices = List.copyOf(choices);
    if (choices.size() != plan.targets().size()) {
      throw new IllegalArgumentException(
          choices.size() + " choices for " + plan.targets().size() + " targets");
    }
    for (int i = 0; i < choices.size(); i++) {
      if (choices.get(i).fileId() != plan.targets().get(i).id()) {
        throw new IllegalArgumentException("choice " + i + " names file " + choices.get(i).fileId()
            + ", target is " + plan.targets().get(i).id());
      }
    }
  }

  public long blockTargets() {
    return choices.stream().filter(c -> c.mode() == TargetChoice.Mode.BLOCK).count();
  }
}

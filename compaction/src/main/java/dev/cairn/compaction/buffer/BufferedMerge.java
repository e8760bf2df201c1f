package dev.cairn.compaction.buffer;

import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPlan;

/** Which compactions feed the compaction buffer (LSbM Algorithm 1, the buffered merge). */
public final class BufferedMerge {
  private BufferedMerge() {}

  /**
   * Whether {@code plan} merges a level down into a level that has a buffer: a table merge into
   * level 1 or deeper from the level above. Its inputs are what the output level's buffer may
   * receive; its data counts towards the output level's freeze round. A trivial move rewrites
   * nothing, and DLC's L0-to-L0 merge stays in L0, which has no buffer.
   */
  public static boolean mergesDown(CompactionPlan plan) {
    return plan.kind() == CompactionKind.TABLE_MERGE && plan.outputLevel() >= 1
        && plan.inputLevel() < plan.outputLevel();
  }

  /**
   * Whether {@code plan}'s inputs are appended to its output level's buffer: a merge down, with a
   * style that buffers merges, into a level whose buffer is not frozen. Every other change to a
   * level with a buffer leaves removed markers instead (docs/compaction.md, "The buffer
   * invariant").
   */
  public static boolean appends(CompactionPlan plan, boolean styleBuffersMerges, FreezeRound outputRound) {
    return styleBuffersMerges && mergesDown(plan) && !outputRound.frozen();
  }
}

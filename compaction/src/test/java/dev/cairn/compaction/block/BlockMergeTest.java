package dev.cairn.compaction.block;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.OutputLimits;
import dev.cairn.model.FileDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class BlockMergeTest {
  private static final OutputLimits LIMITS = new OutputLimits(2 << 20, 20 << 20);

  private static FileDescriptor f(long id, String lo, String hi) {
    return FileDescriptor.of(id, lo.getBytes(StandardCharsets.US_ASCII),
        hi.getBytes(StandardCharsets.US_ASCII), 100, id);
  }

  private static CompactionPlan plan(CompactionKind kind, int in, int out, List<FileDescriptor> targets) {
    return new CompactionPlan(kind, in, out, List.of(f(1, "c", "d")), targets, List.of(), null, false,
        LIMITS, "test");
  }

  @Test
  void onlyATableMergeWithTargetsBelowL0RunsAsABlockMerge() {
    BlockCompactionConfig config = BlockCompactionConfig.defaults();
    assertTrue(BlockMerge.runsAsBlockMerge(plan(CompactionKind.TABLE_MERGE, 1, 2, List.of(f(2, "a", "e"))), config));
    assertFalse(BlockMerge.runsAsBlockMerge(plan(CompactionKind.TABLE_MERGE, 0, 1, List.of(f(2, "a", "e"))), config),
        "every target of a merge out of L0 is rewritten: one table compaction");
    assertFalse(BlockMerge.runsAsBlockMerge(plan(CompactionKind.TABLE_MERGE, 1, 2, List.of()), config),
        "nothing to append to");
    assertFalse(BlockMerge.runsAsBlockMerge(plan(CompactionKind.TRIVIAL_MOVE, 1, 2, List.of()), config));
    assertFalse(BlockMerge.runsAsBlockMerge(plan(CompactionKind.L0_TO_L0, 0, 0, List.of()), config));
  }

  @Test
  void forcedBlockCompactionAppendsOutOfL0Too() {
    BlockCompactionConfig forced = BlockCompactionConfig.defaults().withForceBlock(true);
    assertTrue(BlockMerge.runsAsBlockMerge(plan(CompactionKind.TABLE_MERGE, 0, 1, List.of(f(2, "a", "e"))), forced));
  }
}

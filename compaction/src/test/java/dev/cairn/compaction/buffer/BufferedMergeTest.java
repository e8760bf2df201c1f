package dev.cairn.compaction.buffer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.OutputLimits;
import dev.cairn.model.FileDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class BufferedMergeTest {
  private static final OutputLimits LIMITS = new OutputLimits(2 << 20, 20 << 20);
  private static final FreezeRound OPEN = FreezeRound.NEW;
  private static final FreezeRound FROZEN = new FreezeRound(10, true);

  private static CompactionPlan plan(CompactionKind kind, int in, int out) {
    FileDescriptor input = FileDescriptor.of(1, "c".getBytes(StandardCharsets.US_ASCII),
        "d".getBytes(StandardCharsets.US_ASCII), 100, 1);
    return new CompactionPlan(kind, in, out, List.of(input), List.of(), List.of(), null, false, LIMITS, "test");
  }

  @Test
  void aTableMergeDownIntoLevelOneOrDeeperMergesDown() {
    assertTrue(BufferedMerge.mergesDown(plan(CompactionKind.TABLE_MERGE, 0, 1)));
    assertTrue(BufferedMerge.mergesDown(plan(CompactionKind.TABLE_MERGE, 3, 4)));
    assertFalse(BufferedMerge.mergesDown(plan(CompactionKind.TRIVIAL_MOVE, 1, 2)), "a move rewrites nothing");
    assertFalse(BufferedMerge.mergesDown(plan(CompactionKind.L0_TO_L0, 0, 0)), "L0 has no buffer");
  }

  @Test
  void appendsOnlyWithABufferingStyleIntoAnOpenLevel() {
    CompactionPlan merge = plan(CompactionKind.TABLE_MERGE, 1, 2);
    assertTrue(BufferedMerge.appends(merge, true, OPEN));
    assertFalse(BufferedMerge.appends(merge, true, FROZEN));
    assertFalse(BufferedMerge.appends(merge, false, OPEN), "other styles only keep a leftover buffer correct");
    assertFalse(BufferedMerge.appends(plan(CompactionKind.TRIVIAL_MOVE, 1, 2), true, OPEN));
  }
}

package dev.cairn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.compaction.leveled.CompactionPriority;
import org.junit.jupiter.api.Test;

/**
 * The compaction priority follows the style unless set: min-overlap for table and block
 * compaction, round-robin for the buffer, whose rounds follow that sweep and refuse another.
 */
class CompactionPriorityOptionTest {
  @Test
  void eachStyleHasItsDefault() {
    assertEquals(CompactionPriority.MIN_OVERLAP, Options.defaults().compactionPriority());
    assertEquals(CompactionPriority.MIN_OVERLAP,
        Options.builder().compactionStyle(Options.CompactionStyle.BLOCK).build().compactionPriority());
    assertEquals(CompactionPriority.ROUND_ROBIN,
        Options.builder().compactionStyle(Options.CompactionStyle.BUFFER).build().compactionPriority());
  }

  @Test
  void anUnsetPriorityFollowsAStyleChangedLater() {
    Options table = Options.defaults();
    Options buffer = table.toBuilder().compactionStyle(Options.CompactionStyle.BUFFER).build();
    assertEquals(CompactionPriority.ROUND_ROBIN, buffer.compactionPriority());
  }

  @Test
  void aSetPriorityIsKept() {
    assertEquals(CompactionPriority.ROUND_ROBIN,
        Options.builder().compactionPriority(CompactionPriority.ROUND_ROBIN).build().compactionPriority());
  }

  @Test
  void theBufferRefusesMinOverlap() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Options.builder()
        .compactionStyle(Options.CompactionStyle.BUFFER).compactionPriority(CompactionPriority.MIN_OVERLAP).build());
    assertTrue(e.getMessage().contains("compactionPriority"), e.getMessage());
  }
}

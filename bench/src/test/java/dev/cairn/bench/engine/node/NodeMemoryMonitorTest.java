package dev.cairn.bench.engine.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeMemoryMonitorTest {
  private static final long MIB = 1L << 20;

  @Test
  void onlyCleanFilePagesCountAgainstTheAllowance() {
    // 1,400 MiB in the group: 1,200 anonymous (locked by mlockall), 150 on the file lists of
    // which 30 dirty and 10 under writeback, the rest kernel memory and locked file pages.
    Map<String, Long> stat = Map.of(
        "rss", 1200 * MIB, "active_file", 100 * MIB, "inactive_file", 50 * MIB,
        "dirty", 30 * MIB, "writeback", 10 * MIB, "unevictable", 1250 * MIB);

    assertEquals(110 * MIB, NodeMemoryMonitor.reclaimable(stat));
    assertEquals((1400 - 110 + 32) * MIB, NodeMemoryMonitor.limitFor(1400 * MIB, stat, 32 * MIB),
        "the limit keeps what cannot be reclaimed and leaves 32 MiB for clean pages");
  }

  @Test
  void aGroupWithNoCleanPagesGetsTheWholeAllowanceAboveItsUsage() {
    Map<String, Long> stat = Map.of("active_file", 8 * MIB, "dirty", 12 * MIB);
    assertEquals(0, NodeMemoryMonitor.reclaimable(stat));
    assertEquals(532 * MIB, NodeMemoryMonitor.limitFor(500 * MIB, stat, 32 * MIB));
  }
}

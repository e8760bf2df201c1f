package dev.cairn.compaction;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.model.FileDescriptor;
import dev.cairn.model.LsmShape;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Each conflict rule of {@link RunningCompactions#allows} on its own, keys as single letters. */
class RunningCompactionsTest {
  private static final OutputLimits LIMITS = new OutputLimits(1 << 20, 10 << 20);

  /** Running: L1 -> L2 reading L1 over a..i (files a..b, h..i) and writing L2 over a..z. */
  private static final CompactionPlan L1_TO_L2 =
      plan(1, List.of(file(2, "a", "b"), file(3, "h", "i")), List.of(file(10, "a", "z")));

  @Test
  void nothingRunningAllowsAnything() {
    assertTrue(RunningCompactions.none().allows(L1_TO_L2));
  }

  @Test
  void aSharedFileIsRefused() {
    RunningCompactions running = RunningCompactions.of(List.of(L1_TO_L2));
    assertFalse(running.allows(2, List.of(file(10, "a", "z")), List.of()));
  }

  @Test
  void writingIntoARunningPlansReadRangeIsRefusedEvenInAGap() {
    RunningCompactions running = RunningCompactions.of(List.of(L1_TO_L2));
    // L0 -> L1 at e..f: no file shared, but e..f lies between the running plan's inputs.
    assertFalse(running.allows(0, List.of(file(1, "e", "f")), List.of()));
    // Beside the read range it is fine.
    assertTrue(running.allows(0, List.of(file(1, "j", "k")), List.of()));
  }

  @Test
  void readingWhereARunningPlanWritesIsRefused() {
    // Running: L0 -> L1 writing L1 over e..f, where L1 has no file yet.
    RunningCompactions running =
        RunningCompactions.of(List.of(plan(0, List.of(file(1, "e", "f")), List.of())));
    assertFalse(running.allows(1, List.of(file(2, "a", "b"), file(3, "h", "i")), List.of()));
    assertTrue(running.allows(1, List.of(file(2, "a", "b")), List.of(file(10, "a", "z"))));
  }

  @Test
  void writingWhereARunningPlanWritesIsRefused() {
    RunningCompactions running = RunningCompactions.of(List.of(L1_TO_L2));
    // Another L1 -> L2 from a file outside a..i whose output would still land inside a..z.
    assertFalse(running.allows(1, List.of(file(4, "m", "n")), List.of()));
    // Writing a level nobody claims is fine.
    assertTrue(running.allows(3, List.of(file(20, "m", "n")), List.of()));
  }

  @Test
  void busyIdsAreReadAsTheRunningPlanTheyCameFrom() {
    // Only the ids 2, 3, 10 are known; the shape shows they form the L1 -> L2 plan above.
    LsmShape shape = LsmShape.builder(3)
        .level(0, List.of())
        .level(1, List.of(file(2, "a", "b"), file(3, "h", "i")))
        .level(2, List.of(file(10, "a", "z")))
        .build();
    RunningCompactions running = RunningCompactions.fromBusyFiles(shape, Set.of(2L, 3L, 10L));
    assertFalse(running.allows(0, List.of(file(1, "e", "f")), List.of()));
    assertTrue(running.allows(0, List.of(file(1, "j", "k")), List.of()));
  }

  private static CompactionPlan plan(
      int level, List<FileDescriptor> inputs, List<FileDescriptor> targets) {
    return new CompactionPlan(CompactionKind.TABLE_MERGE, level, level + 1, inputs, targets,
        List.of(), inputs.get(inputs.size() - 1).largestKey(), false, LIMITS, "test");
  }

  private static FileDescriptor file(long id, String smallest, String largest) {
    return new FileDescriptor(id, key(smallest), key(largest), 1000, 10, 1000, 0.0, id, id);
  }

  private static byte[] key(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}

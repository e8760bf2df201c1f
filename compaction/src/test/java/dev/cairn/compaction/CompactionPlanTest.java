package dev.cairn.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.compaction.leveled.LeveledConfig;
import dev.cairn.model.FileDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CompactionPlanTest {
  private static final OutputLimits LIMITS = new OutputLimits(2 << 20, 20 << 20);

  private static FileDescriptor f(long id, String lo, String hi) {
    return FileDescriptor.of(id, lo.getBytes(StandardCharsets.US_ASCII),
        hi.getBytes(StandardCharsets.US_ASCII), 100, id);
  }

  @Test
  void persistentIdsAreStableAndUnique() {
    // Written to disk: these numbers never change.
    assertEquals(1, CompactionKind.TRIVIAL_MOVE.persistentId());
    assertEquals(2, CompactionKind.TABLE_MERGE.persistentId());
    assertEquals(6, CompactionKind.L0_TO_L0.persistentId());
    assertEquals(8, CompactionKind.DELETE_ONLY.persistentId());
    Set<Integer> ids = new HashSet<>();
    for (CompactionKind kind : CompactionKind.values()) {
      assertEquals(kind, CompactionKind.fromPersistentId(kind.persistentId()));
      ids.add(kind.persistentId());
    }
    assertEquals(CompactionKind.values().length, ids.size());
    assertThrows(IllegalArgumentException.class, () -> CompactionKind.fromPersistentId(0));
    for (int retired = 3; retired <= 5; retired++) {
      int id = retired;
      assertThrows(IllegalArgumentException.class, () -> CompactionKind.fromPersistentId(id));
    }
  }

  @Test
  void planValidates() {
    assertThrows(IllegalArgumentException.class, () -> new CompactionPlan(
        CompactionKind.TABLE_MERGE, 1, 2, List.of(), List.of(), List.of(), null, false, LIMITS, "r"));
    assertThrows(IllegalArgumentException.class, () -> new CompactionPlan(
        CompactionKind.TRIVIAL_MOVE, 1, 2, List.of(f(1, "a", "b")), List.of(f(2, "a", "a")),
        List.of(), null, false, LIMITS, "r"));
    assertThrows(IllegalArgumentException.class, () -> new CompactionPlan(
        CompactionKind.TABLE_MERGE, 1, 2, List.of(f(1, "a", "b")), List.of(f(1, "a", "b")),
        List.of(), null, false, LIMITS, "r"));
    assertThrows(IllegalArgumentException.class, () -> new CompactionPlan(
        CompactionKind.TABLE_MERGE, 2, 1, List.of(f(1, "a", "b")), List.of(), List.of(), null,
        false, LIMITS, "r"));
    assertThrows(IllegalArgumentException.class, () -> new CompactionPlan(
        CompactionKind.DELETE_ONLY, 1, 2, List.of(f(1, "a", "b")), List.of(), List.of(), null,
        false, LIMITS, "r"));
    assertThrows(IllegalArgumentException.class, () -> new CompactionPlan(
        CompactionKind.DELETE_ONLY, 1, 1, List.of(f(1, "a", "b")), List.of(f(2, "a", "a")), List.of(), null,
        false, LIMITS, "r"));
    assertEquals(0, new CompactionPlan(CompactionKind.DELETE_ONLY, 2, 2, List.of(f(1, "a", "b")), List.of(),
        List.of(), null, false, LIMITS, "r").readBytes());
    CompactionPlan plan = new CompactionPlan(CompactionKind.TABLE_MERGE, 1, 2,
        List.of(f(1, "c", "d")), List.of(f(2, "a", "c"), f(3, "d", "k")), List.of(f(4, "a", "z")),
        "d".getBytes(StandardCharsets.US_ASCII), true, LIMITS, "r");
    assertEquals("c..d", plan.inputRange().toString());
    assertEquals("a..k", plan.keyRange().toString());
    assertEquals(Set.of(1L, 2L, 3L), plan.fileIds());
    assertEquals(300, plan.readBytes());
  }

  @Test
  void configValidatesAndScalesLevels() {
    LeveledConfig config = LeveledConfig.defaults();
    assertEquals(10L << 20, config.maxBytesForLevel(1));
    assertEquals(100L << 20, config.maxBytesForLevel(2));
    assertEquals(20L << 20, config.maxGrandparentOverlapBytes());
    assertEquals(50L << 20, config.maxExpandedBytes());
    assertThrows(IllegalArgumentException.class, () -> config.maxBytesForLevel(0));
    assertThrows(IllegalArgumentException.class, () -> LeveledConfig.of(1, 4, 10, 10, 2));
    assertThrows(IllegalArgumentException.class, () -> LeveledConfig.of(7, 0, 10, 10, 2));
    assertThrows(IllegalArgumentException.class, () -> LeveledConfig.of(7, 4, 10, 1.0, 2));
    assertThrows(IllegalArgumentException.class, () -> LeveledConfig.of(7, 4, 10, Double.NaN, 2));
    assertThrows(IllegalArgumentException.class, () -> LeveledConfig.of(7, 4, 0, 10, 2));
    assertThrows(IllegalArgumentException.class, () -> new LeveledConfig(7, 4, 10, 10, 4, 40, 3));
    // Deep levels saturate instead of overflowing.
    assertEquals(Long.MAX_VALUE,
        LeveledConfig.of(32, 4, 1L << 40, 1000, 2).maxBytesForLevel(31));
  }

  @Test
  void byteSizesRoundTrip() {
    for (long v : new long[] {0, 1, 1023, 1024, 3 << 20, 5L << 30}) {
      assertEquals(v, ByteSizes.parse(ByteSizes.format(v)));
    }
    assertEquals("1.5MiB", ByteSizes.format(3 << 19));
    assertThrows(IllegalArgumentException.class, () -> ByteSizes.parse("12XB"));
  }
}

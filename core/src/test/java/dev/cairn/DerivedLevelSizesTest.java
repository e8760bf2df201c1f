package dev.cairn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * L1's size follows the memtable, and the table size L1's, unless set (docs/decisions/0008 and
 * 0009).
 */
class DerivedLevelSizesTest {
  private static final long MIB = 1L << 20;

  @Test
  void derivedFromTheMemtableAndTheL0TriggerWithLevelDbsAsTheFloor() {
    assertEquals(128 * MIB, Options.defaults().baseLevelBytes(), "32 MiB memtable x 4");
    assertEquals(16 * MIB, Options.builder().memtableBytes(4 * MIB).build().baseLevelBytes());
    assertEquals(192 * MIB, Options.builder().memtableBytes(32 * MIB).l0CompactionTrigger(6).build().baseLevelBytes());
    assertEquals(10 * MIB, Options.builder().memtableBytes(256 << 10).build().baseLevelBytes(), "the floor");
  }

  @Test
  void aSetSizeIsKeptAndACopyKeepsFollowingTheMemtable() {
    assertEquals(10 * MIB, Options.builder().memtableBytes(32 * MIB).baseLevelBytes(10 * MIB).build().baseLevelBytes());
    Options derived = Options.builder().memtableBytes(8 * MIB).build();
    assertEquals(256 * MIB, derived.toBuilder().memtableBytes(64 * MIB).build().baseLevelBytes());
    assertTrue(derived.toString().contains("baseLevelBytes=" + 32 * MIB + " (derived)"), derived.toString());
  }

  @Test
  void tablesAreAQuarterOfTheBaseLevelBetweenLevelDbsAndRocksDbsSizes() {
    assertEquals(32 * MIB, Options.defaults().targetFileBytes(), "128 MiB L1 / 4");
    assertEquals(4 * MIB, Options.builder().memtableBytes(4 * MIB).build().targetFileBytes());
    assertEquals(10 * MIB / 4, Options.builder().memtableBytes(256 << 10).build().targetFileBytes(), "10 MiB L1");
    assertEquals(2 * MIB, Options.builder().baseLevelBytes(4 * MIB).build().targetFileBytes(), "the floor");
    assertEquals(64 * MIB, Options.builder().baseLevelBytes(1L << 30).build().targetFileBytes(), "the ceiling");
    assertEquals(2 * MIB, Options.builder().baseLevelBytes(1L << 30).targetFileBytes(2 * MIB).build().targetFileBytes());
    assertTrue(Options.defaults().toString().contains("targetFileBytes=" + 32 * MIB + " (derived)"));
  }

  @Test
  void aSetSizeBelowTheMinimumIsRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Options.builder().baseLevelBytes(1000).build());
    assertTrue(e.getMessage().contains("baseLevelBytes"), e.getMessage());
  }
}

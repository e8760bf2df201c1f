package dev.cairn.compaction.dlc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SharedCacheMissesTest {

  @Test
  void chargesEachIntervalsMissesByTheTablesShareOfReads() {
    SharedCacheMisses m = new SharedCacheMisses();
    assertEquals(0, m.observe(1_000, 50, 100), "the first observation is only a baseline");
    // 400 misses while this table served 30 of 100 reads: 120.
    assertEquals(120, m.observe(1_400, 80, 200));
    // 100 misses while it served all 10 reads: all 100.
    assertEquals(220, m.observe(1_500, 90, 210));
  }

  @Test
  void aTableThatReadNothingIsChargedNothing() {
    SharedCacheMisses m = new SharedCacheMisses();
    m.observe(0, 0, 0);
    assertEquals(0, m.observe(5_000, 0, 700));
    assertEquals(0, m.observe(6_000, 0, 0), "no reads anywhere: nothing to split");
  }

  @Test
  void countersGoingBackCountAsNoActivity() {
    SharedCacheMisses m = new SharedCacheMisses();
    m.observe(1_000, 100, 100);
    assertEquals(0, m.observe(10, 5, 5), "a reset (restart of the counters) charges nothing");
    assertEquals(90, m.observe(100, 15, 15), "and counting resumes from the new totals");
  }

  @Test
  void neverChargesMoreThanTheNodeMissed() {
    // Inconsistent totals (table reads sampled after all reads): the share is capped at 1.
    assertEquals(50.0, SharedCacheMisses.share(50, 12, 10));
  }
}

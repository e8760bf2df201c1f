package dev.cairn.hbase.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.hbase.buffer.GenerationTrim.Generation;
import dev.cairn.hbase.buffer.GenerationTrim.Reason;
import dev.cairn.hbase.buffer.GenerationTrim.Retirement;
import java.util.List;
import org.junit.jupiter.api.Test;

class GenerationTrimTest {
  private static final GenerationTrim.Config CONFIG = new GenerationTrim.Config(10_000, 0.5, 1.5, 1.0);

  /** id, leaf bytes, leaf cached, output cached, leaf reads, output reads, age; the output as big as the leaves. */
  private static Generation g(long id, long leaf, long leafCached, long outCached, long leafReads, long outReads,
      long age) {
    return new Generation(id, leaf, leafCached, leaf, outCached, leafReads, outReads, age);
  }

  @Test
  void keepsAHotServingGeneration() {
    assertEquals(List.of(), GenerationTrim.plan(List.of(g(1, 100, 60, 10, 900, 100, 20_000)), 100, 0, CONFIG));
  }

  @Test
  void retiresOnNoReadsOnlyAfterAFullInterval() {
    assertEquals(List.of(new Retirement(1, Reason.COOLED)),
        GenerationTrim.plan(List.of(g(1, 100, 60, 0, 0, 0, 10_000)), 100, 0, CONFIG));
    assertEquals(List.of(), GenerationTrim.plan(List.of(g(1, 100, 60, 0, 0, 0, 9_999)), 100, 0, CONFIG));
  }

  @Test
  void retiresWhenTheOutputHoldsAsMuchInTheCacheAsTheLeaves() {
    assertEquals(List.of(new Retirement(1, Reason.OUTPUT_WARM)),
        GenerationTrim.plan(List.of(g(1, 100, 30, 30, 500, 500, 1_000)), 100, 0, CONFIG));
    assertEquals(List.of(), GenerationTrim.plan(List.of(g(1, 100, 31, 30, 500, 500, 1_000)), 100, 0, CONFIG));
  }

  @Test
  void retiresWhenTheChangedRowsTakeMostReads() {
    assertEquals(List.of(new Retirement(1, Reason.OUTGROWN)),
        GenerationTrim.plan(List.of(g(1, 100, 60, 10, 499, 501, 10_000)), 100, 0, CONFIG));
    assertEquals(List.of(), GenerationTrim.plan(List.of(g(1, 100, 60, 10, 500, 500, 10_000)), 100, 0, CONFIG));
  }

  @Test
  void retiresWhenTheLeavesHoldMoreThanTheDilutionBudgetBeyondTheOutput() {
    Generation diluted = new Generation(1, 131, 60, 100, 10, 500, 0, 20_000); // 31 beyond the output
    assertEquals(List.of(new Retirement(1, Reason.DILUTED)), GenerationTrim.plan(List.of(diluted), 100, 30, CONFIG));
    assertEquals(List.of(), GenerationTrim.plan(List.of(diluted), 100, 31, CONFIG));
    assertEquals(List.of(), GenerationTrim.plan(List.of(diluted), 100, 0, CONFIG)); // no cache: no rule
  }

  @Test
  void overTheBudgetRetiresTheLeastCachedFirstUntilWithin() {
    List<Retirement> out = GenerationTrim.plan(List.of(
        g(1, 100, 90, 0, 10, 0, 20_000), // 0.9 cached
        g(2, 100, 10, 0, 10, 0, 20_000), // 0.1 cached: goes first
        g(3, 100, 50, 0, 10, 0, 20_000)), 140, 0, CONFIG); // 300 extra > 210 = 1.5 x 140
    assertEquals(List.of(new Retirement(2, Reason.OVER_BUDGET)), out);
    assertTrue(GenerationTrim.withinBudget(150, 100, CONFIG));
    assertFalse(GenerationTrim.withinBudget(151, 100, CONFIG));
  }

  @Test
  void refusesBadSettingsAndFigures() {
    assertThrows(IllegalArgumentException.class, () -> new GenerationTrim.Config(0, 0.5, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> new GenerationTrim.Config(1, 1.5, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> new GenerationTrim.Config(1, 0.5, -1, 1));
    assertThrows(IllegalArgumentException.class, () -> new GenerationTrim.Config(1, 0.5, 1, -1));
    assertThrows(IllegalArgumentException.class, () -> g(1, -1, 0, 0, 0, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> GenerationTrim.plan(List.of(), -1, 0, CONFIG));
  }
}

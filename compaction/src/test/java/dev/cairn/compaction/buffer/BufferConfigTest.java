package dev.cairn.compaction.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The buffer's settings: the paper's defaults, and a clear refusal naming each bad value. */
class BufferConfigTest {
  @Test
  void defaultsAreThePapersTrimWithATenthOfATableAsTrimUnitAndCairnsOwnSteps() {
    BufferConfig d = BufferConfig.defaults();
    assertEquals(30_000, d.trimIntervalMillis());
    assertEquals(0.8, d.trimCachedFraction());
    assertEquals(Double.POSITIVE_INFINITY, d.freezeRepeatedFraction(), "measured: the freeze costs the benefit");
    assertEquals(0, d.trimUnitBytes(), "derived from the base level");
    assertEquals(32, d.trimPassesPerBaseLevel());
    assertTrue(d.carryBuffers());
    assertEquals(4.0, d.coldRunBudget());
    assertEquals(0.20, d.maxSpaceFraction(), "measured: docs/results/issue17/budget2");
    assertFalse(d.keepColdArrivals(), "a file with no warm block is left out");
    assertTrue(d.withKeepColdArrivals(true).keepColdArrivals());
    assertEquals(1000, d.fullBoundMissMicros(), "the whole bound from a millisecond's miss: docs/compaction.md");
    assertEquals(0, d.withFullBoundMissMicros(0).fullBoundMissMicros());
  }

  @Test
  void badValuesAreRefusedByName() {
    BufferConfig d = BufferConfig.defaults();
    Object[][] cases = {
        {"trimIntervalMillis", (Supplier<?>) () -> d.withTrimIntervalMillis(0)},
        {"trimCachedFraction", (Supplier<?>) () -> d.withTrimCachedFraction(1.5)},
        {"trimCachedFraction", (Supplier<?>) () -> d.withTrimCachedFraction(Double.NaN)},
        {"freezeRepeatedFraction", (Supplier<?>) () -> d.withFreezeRepeatedFraction(-0.1)},
        {"freezeRepeatedFraction", (Supplier<?>) () -> d.withFreezeRepeatedFraction(Double.NaN)},
        {"trimUnitBytes", (Supplier<?>) () -> d.withTrimUnitBytes(-1)},
        {"trimPassesPerBaseLevel", (Supplier<?>) () -> d.withTrimPassesPerBaseLevel(-1)},
        {"coldRunBudget", (Supplier<?>) () -> d.withColdRunBudget(-1)},
        {"coldRunBudget", (Supplier<?>) () -> d.withColdRunBudget(Double.NaN)},
        {"maxSpaceFraction", (Supplier<?>) () -> d.withMaxSpaceFraction(-0.5)},
        {"maxSpaceFraction", (Supplier<?>) () -> d.withMaxSpaceFraction(Double.NaN)},
        {"fullBoundMissMicros", (Supplier<?>) () -> d.withFullBoundMissMicros(-1)},
        {"fullBoundMissMicros", (Supplier<?>) () -> d.withFullBoundMissMicros(Double.NaN)},
    };
    for (Object[] c : cases) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ((Supplier<?>) c[1]).get());
      assertTrue(e.getMessage().contains((String) c[0]), e.getMessage());
    }
  }

  @Test
  void anInfiniteFreezeToleranceIsAcceptedAsNeverFreeze() {
    assertEquals(Double.POSITIVE_INFINITY,
        BufferConfig.defaults().withFreezeRepeatedFraction(Double.POSITIVE_INFINITY).freezeRepeatedFraction());
  }
}

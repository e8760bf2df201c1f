package dev.cairn.compaction.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ReadWeightedShareTest {
  @Test
  void eachReadWeighsTheShareHeldWhenItWasAnswered() {
    ReadWeightedShare share = new ReadWeightedShare(100, 0.6); // reads 100-110 see 0.6
    share.changed(110, 0.0); // reads 110-140 see 0
    assertEquals(0.15, share.mean(140), 1e-12);
  }

  @Test
  void aShareHeldWhileNoOneReadWeighsNothing() {
    ReadWeightedShare share = new ReadWeightedShare(0, 0.9); // a bulk load: L0 holds most, no reads
    share.changed(0, 0.1);
    share.changed(0, 0.05);
    assertEquals(0.05, share.mean(1_000), 1e-12);
  }

  @Test
  void theShareNowWhenNoReadCameYet() {
    ReadWeightedShare share = new ReadWeightedShare(7, 0.2);
    share.changed(7, 0.3);
    assertEquals(0.3, share.mean(7), 1e-12);
  }

  @Test
  void aRestartForgetsThePast() {
    ReadWeightedShare share = new ReadWeightedShare(0, 1.0);
    share.changed(50, 0.1);
    share.restart(60, 0.1);
    share.changed(70, 0.3);
    assertEquals(0.2, share.mean(80), 1e-12, "0.1 for 10 reads, 0.3 for 10");
  }

  @Test
  void aShareOutsideZeroToOneIsRefusedAndChangesNothing() {
    ReadWeightedShare share = new ReadWeightedShare(0, 0.5);
    assertThrows(IllegalArgumentException.class, () -> share.changed(5, 1.5));
    assertThrows(IllegalArgumentException.class, () -> share.changed(5, -0.1));
    assertThrows(IllegalArgumentException.class, () -> share.changed(5, Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> new ReadWeightedShare(0, 2));
    assertEquals(0.5, share.mean(10), 1e-12);
  }
}

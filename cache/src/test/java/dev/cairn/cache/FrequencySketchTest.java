package dev.cairn.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FrequencySketchTest {
  private static long key(int i) {
    return FrequencySketch.hash(7, i * 4096L);
  }

  @Test
  void countsUpToFifteenAndNeverBelowTheTruth() {
    FrequencySketch sketch = new FrequencySketch(1024);
    for (int i = 0; i < 512; i++) {
      for (int n = 0; n < i % 20; n++) {
        sketch.increment(key(i));
      }
    }
    int exact = 0;
    for (int i = 0; i < 512; i++) {
      int frequency = sketch.frequency(key(i));
      int truth = Math.min(15, i % 20);
      assertTrue(frequency >= truth, "key " + i + ": " + frequency + " < " + truth);
      exact += frequency == truth ? 1 : 0;
    }
    // Half the sketch's capacity in keys: four counters each rarely all collide.
    assertTrue(exact >= 500, "only " + exact + " of 512 counted exactly");
    assertEquals(0, sketch.frequency(key(100_000)) , "a key never counted, in a sparse sketch");
  }

  @Test
  void agingHalvesEveryCount() {
    FrequencySketch sketch = new FrequencySketch(16);
    assertEquals(16, sketch.capacity());
    // With 16 counters to a long and 256 in all, a few keys can collide: key 1 must not.
    for (int n = 0; n < 12; n++) {
      sketch.increment(key(1));
    }
    assertEquals(12, sketch.frequency(key(1)));
    // The aging period is ten counted events per capacity entry: 160, of which 12 are spent.
    for (int n = 0; n < 160 - 12 - 1; n++) { // keys counted once each: none saturates
      sketch.increment(key(2 + n));
    }
    assertEquals(12, sketch.frequency(key(1)), "one event short of the period");
    sketch.increment(key(5));
    assertEquals(6, sketch.frequency(key(1)), "halved");
  }

  @Test
  void growingForgetsAndOnlyGrows() {
    FrequencySketch sketch = new FrequencySketch(100);
    assertEquals(128, sketch.capacity());
    sketch.increment(key(1));
    sketch.ensureCapacity(50);
    assertEquals(128, sketch.capacity());
    assertEquals(1, sketch.frequency(key(1)));
    sketch.ensureCapacity(129);
    assertEquals(256, sketch.capacity());
    assertEquals(0, sketch.frequency(key(1)), "a resized sketch starts over");
  }
}

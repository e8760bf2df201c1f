package dev.cairn.db.base;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LatencyBucketsTest {
  private static final long HOUR_MICROS = 3_600_000_000L;

  @Test
  void bucketsTileTheValuesWithoutGapsOrOverlaps() {
    int count = LatencyBuckets.count(HOUR_MICROS);
    assertEquals(0, LatencyBuckets.lowest(0));
    for (int i = 0; i < count; i++) {
      long lowest = LatencyBuckets.lowest(i);
      long highest = LatencyBuckets.highest(i);
      assertTrue(lowest <= highest, "bucket " + i);
      assertEquals(i, LatencyBuckets.index(lowest), "lowest of bucket " + i);
      assertEquals(i, LatencyBuckets.index(highest), "highest of bucket " + i);
      assertEquals(i + 1, LatencyBuckets.index(highest + 1), "the value after bucket " + i);
    }
    assertEquals(count - 1, LatencyBuckets.index(HOUR_MICROS));
  }

  @Test
  void aBucketIsNoWiderThanA128thOfItsValues() {
    SplittableRandom random = new SplittableRandom(7);
    for (int n = 0; n < 100_000; n++) {
      long value = random.nextLong(1L << random.nextInt(1, 33));
      int bucket = LatencyBuckets.index(value);
      long lowest = LatencyBuckets.lowest(bucket);
      long highest = LatencyBuckets.highest(bucket);
      assertTrue(lowest <= value && value <= highest, value + " in [" + lowest + ", " + highest + "]");
      long width = highest - lowest + 1;
      assertTrue(width == 1 || width * 128 <= lowest, value + ": bucket width " + width);
    }
  }

  @Test
  void valuesBelow256AreExact() {
    for (int value = 0; value < 256; value++) {
      assertEquals(value, LatencyBuckets.lowest(LatencyBuckets.index(value)));
      assertEquals(value, LatencyBuckets.highest(LatencyBuckets.index(value)));
    }
    assertEquals(257, LatencyBuckets.highest(LatencyBuckets.index(256)), "width 2 from 256");
  }
}

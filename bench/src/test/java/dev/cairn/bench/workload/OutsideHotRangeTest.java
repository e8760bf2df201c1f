package dev.cairn.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class OutsideHotRangeTest {
  @Test
  void rangehotApartUpdatesEveryKeyOutsideTheHotRangeAndNoneInside() {
    KeySpace keys = new KeySpace(1_000);
    HotRange hot = HotRange.centred(1_000, 0.15, 0.98);
    KeyChooser writes = Workloads.outside(keys, hot);
    SplittableRandom random = new SplittableRandom(3);
    boolean[] seen = new boolean[1_000];
    for (int i = 0; i < 100_000; i++) {
      long id = writes.next(random);
      assertFalse(hot.isHot(id), "wrote hot key " + id);
      seen[(int) id] = true;
    }
    int outside = 0;
    for (int id = 0; id < seen.length; id++) {
      if (seen[id]) {
        outside++;
      }
    }
    assertEquals(1_000 - hot.hotCount(), outside, "every key outside the hot range is written");
  }

  @Test
  void aHotRangeOfEveryKeyLeavesNothingToWrite() {
    KeySpace keys = new KeySpace(10);
    assertThrows(IllegalArgumentException.class, () -> Workloads.outside(keys, new HotRange(10, 0, 10, 0.98)));
  }
}

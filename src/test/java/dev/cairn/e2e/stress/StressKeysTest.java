package dev.cairn.e2e.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class StressKeysTest {
  @Test
  void keysSortByThreadThenIndexAndStayInsideTheirThreadsBounds() {
    byte[] previous = null;
    for (int t = 0; t < 3; t++) {
      for (int k = 0; k < 1200; k++) {
        byte[] key = StressKeys.key(t, k);
        if (previous != null) {
          assertTrue(Arrays.compareUnsigned(previous, key) < 0, "key " + t + "/" + k + " sorts before its predecessor");
        }
        assertTrue(Arrays.compareUnsigned(StressKeys.threadPrefix(t), key) <= 0, "below its thread's lower bound");
        assertTrue(Arrays.compareUnsigned(key, StressKeys.threadEnd(t)) < 0, "above its thread's upper bound");
        assertEquals(k, StressKeys.indexOf(t, key));
        assertEquals(-1, StressKeys.indexOf(t + 1, key), "another thread must not claim the key");
        previous = key;
      }
    }
  }

  @Test
  void versionOfAcceptsExactlyTheValueWrittenForThatKey() {
    byte[] value = StressKeys.value(2, 17, 99);
    assertEquals(99, StressKeys.versionOf(2, 17, value));
    assertEquals(-1, StressKeys.versionOf(2, 18, value), "a value of another key");
    assertEquals(-1, StressKeys.versionOf(1, 17, value), "a value of another thread");
    for (int i = 0; i < value.length; i += 7) {
      byte[] damaged = value.clone();
      damaged[i] ^= 0x10;
      assertEquals(-1, StressKeys.versionOf(2, 17, damaged), "flipped bit at byte " + i);
    }
    assertEquals(-1, StressKeys.versionOf(2, 17, Arrays.copyOf(value, value.length - 1)), "truncated value");
  }

  @Test
  void operationsAreAPureFunctionOfSeedThreadAndIndex() {
    StressWorkload w = new StressWorkload(42, 4, 1000, 10);
    for (long i = 1; i < 200; i++) {
      StressOp a = StressOp.generate(w, 3, i);
      StressOp b = StressOp.generate(w, 3, i);
      assertEquals(a.toString(), b.toString());
      assertEquals(a.keys().length, Arrays.stream(a.keys()).distinct().count(), "keys of one op are distinct");
    }
  }
}

package dev.cairn.compaction.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class BufferBloomTest {
  @Test
  void addsLog2OfTheRatioOverLn2BitsRoundedUp() {
    assertEquals(15, BufferBloom.bitsPerKey(10, 10)); // 10 + 3.32 / 0.693 = 14.79
    assertEquals(13, BufferBloom.bitsPerKey(10, 4)); // 10 + 2 / 0.693 = 12.89
    assertEquals(3, BufferBloom.bitsPerKey(1, 2)); // 1 + 1 / 0.693 = 2.44
  }

  @Test
  void noFilterStaysNoFilterAndTheResultIsCapped() {
    assertEquals(0, BufferBloom.bitsPerKey(0, 10));
    assertEquals(64, BufferBloom.bitsPerKey(63, 10));
  }

  @Test
  void rejectsBadInput() {
    assertThrows(IllegalArgumentException.class, () -> BufferBloom.bitsPerKey(-1, 10));
    assertThrows(IllegalArgumentException.class, () -> BufferBloom.bitsPerKey(10, 1));
  }
}

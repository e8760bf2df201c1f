package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link HotRanges} against a brute-force set of one-letter keys. */
class HotRangesTest {
  private static byte[] b(char c) {
    return String.valueOf(c).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void overlapsAgreesWithTheUnionOfTheAddedRangesForRandomRanges() {
    SplittableRandom r = new SplittableRandom(5);
    for (int round = 0; round < 2000; round++) {
      HotRanges ranges = new HotRanges();
      boolean[] member = new boolean[26];
      for (int i = r.nextInt(6); i > 0; i--) {
        int lo = r.nextInt(26);
        int hi = r.nextInt(26);
        ranges.add(b((char) ('a' + lo)), b((char) ('a' + hi))); // lo > hi: an empty range, ignored
        for (int k = lo; k <= hi; k++) {
          member[k] = true;
        }
      }
      int lo = r.nextInt(26);
      int hi = lo + r.nextInt(26 - lo);
      boolean expected = false;
      for (int k = lo; k <= hi; k++) {
        expected |= member[k];
      }
      assertEquals(expected, ranges.overlaps(b((char) ('a' + lo)), b((char) ('a' + hi))),
          "round " + round + ": [" + (char) ('a' + lo) + ".." + (char) ('a' + hi) + "]");
    }
  }
}

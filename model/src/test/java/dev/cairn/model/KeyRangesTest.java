package dev.cairn.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link KeyRanges} against a brute-force model of ranges of one-letter keys. */
class KeyRangesTest {
  private static byte[] b(char c) {
    return String.valueOf(c).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void overlapsAgreesWithTheUnionOfTheAddedRangesForRandomRanges() {
    SplittableRandom r = new SplittableRandom(5);
    for (int round = 0; round < 2000; round++) {
      KeyRanges ranges = new KeyRanges();
      boolean[] member = new boolean[26];
      boolean[][] inOneRange = new boolean[26][26]; // letters k and k+1 joined by an added range
      for (int i = r.nextInt(6); i > 0; i--) {
        int lo = r.nextInt(26);
        int hi = r.nextInt(26);
        ranges.add(b((char) ('a' + lo)), b((char) ('a' + hi))); // lo > hi: an empty range, ignored
        for (int k = lo; k <= hi; k++) {
          member[k] = true;
          if (k < hi) {
            inOneRange[k][k + 1] = true;
          }
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
      // Covered: every letter of the query is in a range, and no two ranges only touch inside it
      // (between letters lie keys such as "c\0" that no inclusive range of letters holds).
      boolean covered = true;
      for (int k = lo; k <= hi; k++) {
        covered &= member[k];
      }
      if (covered && lo < hi) {
        for (int k = lo; k < hi; k++) {
          covered &= inOneRange[k][k + 1];
        }
      }
      assertEquals(covered, ranges.covers(b((char) ('a' + lo)), b((char) ('a' + hi))),
          "covers, round " + round + ": [" + (char) ('a' + lo) + ".." + (char) ('a' + hi) + "]");
    }
  }
}

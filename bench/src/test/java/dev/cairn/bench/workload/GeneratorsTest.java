package dev.cairn.bench.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class GeneratorsTest {
  private static final long SEED = Long.getLong("bench.test.seed", 20240611L);
  private static final int DRAWS = 200_000;

  private static long[] counts(KeyChooser chooser, long n, long seed) {
    long[] counts = new long[(int) n];
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < DRAWS; i++) {
      long id = chooser.next(r);
      assertTrue(id >= 0 && id < n, "id " + id + " outside [0, " + n + "), seed " + seed);
      counts[(int) id]++;
    }
    return counts;
  }

  @Test
  void zipfianRankZeroIsFarMorePopularThanUniform() {
    long n = 10_000;
    long[] counts = counts(new Zipfian(n, Zipfian.YCSB_THETA), n, SEED);
    double uniformShare = (double) DRAWS / n;
    // With theta 0.99 over 10,000 items rank 0 takes about 1/zeta(n) ~ 10% of draws: ~500x uniform.
    assertTrue(counts[0] > 100 * uniformShare, "rank 0 drawn " + counts[0] + " times, seed " + SEED);
    assertTrue(counts[0] > counts[1] && counts[1] > counts[10], "ranks not decreasing, seed " + SEED);
    long top100 = Arrays.stream(counts, 0, 100).sum();
    assertTrue(top100 > DRAWS / 3, "top 1% of ranks drew only " + top100 + ", seed " + SEED);
  }

  @Test
  void scrambledZipfianKeepsTheSkewButMovesTheHotKeys() {
    long n = 10_000;
    long[] counts = counts(new ScrambledZipfian(n, Zipfian.YCSB_THETA), n, SEED);
    long max = Arrays.stream(counts).max().orElseThrow();
    int hottest = 0;
    while (counts[hottest] != max) {
      hottest++;
    }
    assertTrue(max > 100 * DRAWS / n, "hottest id drawn " + max + " times, seed " + SEED);
    assertTrue(hottest != 0, "scrambling left the hottest key at id 0");
    assertEquals(Math.floorMod(ScrambledZipfian.fnv1a64(0), n), hottest, "rank 0 should map to fnv(0) mod n");
  }

  @Test
  void generatorsAreDeterministicForASeed() {
    for (KeyChooser c : new KeyChooser[] {new Zipfian(5000, 0.99), new ScrambledZipfian(5000, 0.99),
        HotRange.centred(5000, 0.15, 0.98)}) {
      assertArrayEquals(counts(c, 5000, SEED), counts(c, 5000, SEED), "seed " + SEED);
      assertTrue(!Arrays.equals(counts(c, 5000, SEED), counts(c, 5000, SEED + 1)), "seed ignored");
    }
    assertArrayEquals(new Values(64, SEED).next(new SplittableRandom(1)), new Values(64, SEED).next(new SplittableRandom(1)));
  }

  @Test
  void hotRangeTakesTheConfiguredShareOfReads() {
    long n = 100_000;
    HotRange hot = HotRange.centred(n, 0.15, 0.98);
    assertEquals(15_000, hot.hotCount());
    assertEquals(42_500, hot.hotStart());
    SplittableRandom r = new SplittableRandom(SEED);
    int inHot = 0;
    for (int i = 0; i < DRAWS; i++) {
      if (hot.isHot(hot.next(r))) {
        inHot++;
      }
    }
    double share = (double) inHot / DRAWS;
    assertTrue(Math.abs(share - 0.98) < 0.005, "hot share " + share + ", seed " + SEED);
  }

  @Test
  void keysSortLikeTheirIds() {
    SplittableRandom r = new SplittableRandom(SEED);
    for (int i = 0; i < 10_000; i++) {
      long a = r.nextLong(1L << 50);
      long b = r.nextLong(1L << 50);
      assertEquals(Long.signum(Long.compare(a, b)), Integer.signum(Arrays.compareUnsigned(Keys.encode(a), Keys.encode(b))),
          a + " vs " + b);
      assertEquals(a, Keys.decode(Keys.encode(a)));
    }
    assertEquals(Keys.KEY_BYTES, Keys.encode(7).length);
    assertThrows(IllegalArgumentException.class, () -> Keys.encode(-1));
  }

  @Test
  void loadOrderIsASeededPermutation() {
    LoadOrder order = new LoadOrder(1000, SEED);
    boolean[] seen = new boolean[1000];
    int inPlace = 0;
    for (int i = 0; i < 1000; i++) {
      long id = order.next();
      assertTrue(!seen[(int) id], "id " + id + " handed out twice");
      seen[(int) id] = true;
      inPlace += id == i ? 1 : 0;
    }
    assertEquals(-1, order.next());
    assertTrue(inPlace < 20, "not shuffled: " + inPlace + " ids in place");
  }

  @Test
  void latestReadsFollowTheSweepingWriter() {
    KeySpace keys = new KeySpace(100);
    for (int i = 0; i < 130; i++) {
      keys.claimSweep();
    }
    assertEquals(29, keys.behindSweep(0));
    assertEquals(99, keys.behindSweep(30));
    assertEquals(100, keys.claimInsert());
    assertEquals(101, keys.size());
  }

  @Test
  void valuesAreIncompressible() throws Exception {
    byte[] v = new Values(4096, SEED).next(new SplittableRandom(SEED));
    java.util.zip.Deflater d = new java.util.zip.Deflater(9);
    d.setInput(v);
    d.finish();
    byte[] buf = new byte[8192];
    int len = d.deflate(buf);
    assertTrue(len > 4000, "a 4 KiB value compressed to " + len + " bytes");
  }

  @Test
  void valuesAtARatioCompressToAboutThatRatio() {
    for (double ratio : new double[] {0.25, 0.5, 0.75}) {
      Values values = new Values(4096, ratio, SEED);
      SplittableRandom r = new SplittableRandom(SEED);
      long raw = 0;
      long deflated = 0;
      for (int i = 0; i < 16; i++) {
        byte[] v = values.next(r);
        java.util.zip.Deflater d = new java.util.zip.Deflater(1);
        d.setInput(v);
        d.finish();
        byte[] buf = new byte[8192];
        deflated += d.deflate(buf);
        raw += v.length;
        d.end();
      }
      double got = deflated / (double) raw;
      // Fresh bytes are printable characters (under 7 bits of entropy each), so a coder gets a
      // little below the ratio; the repeats cost a few bytes a piece.
      assertTrue(got > ratio * 0.6 && got < ratio * 1.1, "ratio " + ratio + " compressed to " + got);
    }
    assertThrows(IllegalArgumentException.class, () -> new Values(64, 0, SEED));
    assertThrows(IllegalArgumentException.class, () -> new Values(64, 1.5, SEED));
  }
}

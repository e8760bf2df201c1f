package dev.cairn.bench.workload;

import java.util.SplittableRandom;

/**
 * Zipfian popularity spread over the key space: the popular items are not the smallest ids but
 * ids scattered by an FNV-1a hash of the rank, as YCSB's {@code ScrambledZipfianGenerator} does.
 * Without scrambling every hot key would sit in one table and one cache block, which measures
 * the cache rather than the tree. Distinct ranks may hash to one id; the skew survives that.
 */
public final class ScrambledZipfian implements KeyChooser {
  private static final long FNV_OFFSET_BASIS = 0xCBF29CE484222325L;
  private static final long FNV_PRIME = 0x100000001B3L;

  private final Zipfian ranks;

  public ScrambledZipfian(long n, double theta) {
    this.ranks = new Zipfian(n, theta);
  }

  @Override
  public long next(SplittableRandom random) {
    return Math.floorMod(fnv1a64(ranks.next(random)), ranks.items());
  }

  /** FNV-1a over the eight little-endian bytes of {@code value}. */
  static long fnv1a64(long value) {
    long hash = FNV_OFFSET_BASIS;
    for (int i = 0; i < 8; i++) {
      hash ^= (value >>> (8 * i)) & 0xFF;
      hash *= FNV_PRIME;
    }
    return hash;
  }
}

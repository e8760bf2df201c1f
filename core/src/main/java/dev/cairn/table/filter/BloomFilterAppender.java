package dev.cairn.table.filter;

import java.util.Arrays;

/**
 * Adds keys to an existing filter block without resizing it (BlockDB's reserved bits,
 * docs/format.md section 8): the bit array keeps its size and probe count, new keys' probe bits
 * are ORed in with the layout of {@link BloomFilterBuilder}. Keys once added are never removed
 * (a key dropped from the table stays a possible false positive).
 *
 * <p>How full a filter may get is judged by its estimated false-positive rate, {@code
 * (set bits / bits)^k}: the probability that k probes of an absent key all hit set bits.
 */
public final class BloomFilterAppender {
  private BloomFilterAppender() {}

  /** A copy of filter block {@code contents} with the keys of {@code hashes} added. */
  public static byte[] withKeys(byte[] contents, long[] hashes, int count) {
    byte[] out = Arrays.copyOf(contents, contents.length);
    int bytes = contents.length - 1;
    int bits = bytes * 8;
    int k = contents[bytes] & 0xff;
    BloomFilterBuilder.setProbeBits(out, bits, k, hashes, count);
    return out;
  }

  /** The expected false-positive rate of filter block {@code contents}: fill^k. */
  public static double estimatedFalsePositiveRate(byte[] contents) {
    int bytes = contents.length - 1;
    if (bytes <= 0) {
      return 1.0;
    }
    long set = 0;
    for (int i = 0; i < bytes; i++) {
      set += Integer.bitCount(contents[i] & 0xff);
    }
    int k = contents[bytes] & 0xff;
    return Math.pow((double) set / (bytes * 8L), k);
  }
}

package dev.cairn.table.filter;

import java.util.Arrays;

/**
 * Collects user-key hashes and builds a whole-table Bloom filter block (docs/format.md section 5):
 *
 * <pre>
 *   bit array (m bytes) | k: u8
 *   bits = max(64, keys * bitsPerKey) rounded up to bytes;  k = round(bitsPerKey * ln 2) in [1, 30]
 *   probe j of key: unsigned(h1 + j * delta) mod bits,  h = hash64(key), h1 = (int) h,
 *                   delta = (int) (h >>> 32) | 1
 * </pre>
 *
 * Only hashes are kept (8 bytes per key), not the keys. Not thread-safe.
 */
public final class BloomFilterBuilder {
  private final int bitsPerKey;
  private long[] hashes = new long[256];
  private int count;

  public BloomFilterBuilder(int bitsPerKey) {
    if (bitsPerKey < 1) {
      throw new IllegalArgumentException("bits per key must be >= 1: " + bitsPerKey);
    }
    this.bitsPerKey = bitsPerKey;
  }

  /** Number of probes for {@code bitsPerKey}: round(bitsPerKey * ln 2), clamped to [1, 30]. */
  public static int probesFor(int bitsPerKey) {
    int k = (int) Math.round(bitsPerKey * Math.log(2));
    return Math.max(1, Math.min(30, k));
  }

  /** Adds a user key. The caller adds each distinct user key once (repeats only waste memory). */
  public void addKey(byte[] userKey) {
    addHash(BloomHash.hash64(userKey));
  }

  public void addHash(long hash) {
    if (count == hashes.length) {
      hashes = Arrays.copyOf(hashes, count * 2);
    }
    hashes[count++] = hash;
  }

  public int keyCount() {
    return count;
  }

  /** The filter block's contents. */
  public byte[] finish() {
    return finish(0);
  }

  /**
   * The filter block's contents, sized for {@code (1 + reserve)} times the keys added, so that
   * keys appended later by block compaction keep the bits per key (BlockDB's reserved bits).
   */
  public byte[] finish(double reserve) {
    long capacity = (long) Math.ceil(count * (1 + reserve));
    long wantBits = Math.max(64L, capacity * bitsPerKey);
    int bytes = (int) Math.min((wantBits + 7) / 8, Integer.MAX_VALUE - 16);
    int bits = bytes * 8;
    int k = probesFor(bitsPerKey);
    byte[] out = new byte[bytes + 1];
    setProbeBits(out, bits, k, hashes, count);
    out[bytes] = (byte) k;
    return out;
  }

  /**
   * Sets the {@code k} probe bits of each of the first {@code count} key hashes in the bit array
   * {@code filter[0, bits / 8)} (docs/format.md section 5); shared with {@link BloomFilterAppender},
   * which ORs appended keys into an existing filter with the same layout.
   */
  static void setProbeBits(byte[] filter, int bits, int k, long[] hashes, int count) {
    for (int i = 0; i < count; i++) {
      long h = hashes[i];
      int h1 = (int) h;
      int delta = (int) (h >>> 32) | 1;
      for (int j = 0; j < k; j++) {
        int bit = Integer.remainderUnsigned(h1, bits);
        filter[bit >>> 3] |= (byte) (1 << (bit & 7));
        h1 += delta;
      }
    }
  }
}

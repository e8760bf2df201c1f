package dev.cairn.table.filter;

import dev.cairn.CorruptionException;
import java.util.Arrays;

/**
 * A decoded Bloom filter block (layout in {@link BloomFilterBuilder}). Immutable and thread-safe.
 * Never gives a false negative for a key the builder added.
 */
public final class BloomFilter {
  private final byte[] bitArray;
  private final int bits;
  private final int probes;

  private BloomFilter(byte[] bitArray, int probes) {
    this.bitArray = bitArray;
    this.bits = bitArray.length * 8;
    this.probes = probes;
  }

  /**
   * Decodes filter block contents; a block too short to hold a bit array and the probe count is
   * corruption at {@code blockOffset}.
   */
  public static BloomFilter decode(byte[] contents, String fileName, long blockOffset) {
    if (contents.length < 2) {
      throw new CorruptionException(fileName, blockOffset,
          "filter block of " + contents.length + " bytes is too short");
    }
    int k = contents[contents.length - 1] & 0xff;
    if (k == 0) {
      throw new CorruptionException(fileName, blockOffset + contents.length - 1,
          "filter with 0 probes");
    }
    return new BloomFilter(Arrays.copyOf(contents, contents.length - 1), k);
  }

  public boolean mayContain(byte[] userKey) {
    return mayContainHash(BloomHash.hash64(userKey));
  }

  public boolean mayContainHash(long hash) {
    if (probes > 30) {
      return true; // reserved for other encodings: never exclude
    }
    int h1 = (int) hash;
    int delta = (int) (hash >>> 32) | 1;
    for (int j = 0; j < probes; j++) {
      int bit = Integer.remainderUnsigned(h1, bits);
      if ((bitArray[bit >>> 3] & (1 << (bit & 7))) == 0) {
        return false;
      }
      h1 += delta;
    }
    return true;
  }

  /** The filter block's contents, as {@link #decode} reads them: the bit array, then the probe count. */
  public byte[] encode() {
    byte[] out = Arrays.copyOf(bitArray, bitArray.length + 1);
    out[bitArray.length] = (byte) probes;
    return out;
  }

  public int probes() {
    return probes;
  }

  public int sizeBytes() {
    return bitArray.length + 1;
  }
}

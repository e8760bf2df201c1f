package dev.cairn.compaction.buffer;

/** How strong the Bloom filters of a database with a compaction buffer must be. */
public final class BufferBloom {
  private BufferBloom() {}

  /**
   * Bloom bits per key for tables of a database with the buffer (dLSM, section IV-C): a lookup
   * probes up to about {@code r} overlapping buffer runs per level, so each filter needs a false
   * positive rate {@code f / r} for the level to keep rate {@code f}; with {@code b} bits
   * ({@code f = e^{-b ln²2}}) that is {@code log2(r/f)/ln 2 = b + log2(r)/ln 2} bits, rounded up
   * and capped at 64. Zero (filters off) stays zero.
   *
   * @param bitsPerKey the bits per key the database asks for
   * @param levelSizeRatio {@code r}, the size ratio between adjacent levels
   */
  public static int bitsPerKey(int bitsPerKey, int levelSizeRatio) {
    if (bitsPerKey < 0 || levelSizeRatio < 2) {
      throw new IllegalArgumentException(
          "bitsPerKey must be >= 0 and levelSizeRatio >= 2: " + bitsPerKey + ", " + levelSizeRatio);
    }
    if (bitsPerKey == 0) {
      return 0;
    }
    double extra = (Math.log(levelSizeRatio) / Math.log(2)) / Math.log(2);
    return Math.min(64, (int) Math.ceil(bitsPerKey + extra));
  }
}

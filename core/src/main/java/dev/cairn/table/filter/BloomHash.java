package dev.cairn.table.filter;

/**
 * The 64-bit hash of user keys for Bloom filters. Its definition is part of the on-disk format
 * (docs/format.md section 5): changing it silently breaks every existing filter, so it never
 * changes. Word-at-a-time mixing, finished with MurmurHash3's fmix64 for avalanche.
 */
public final class BloomHash {
  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;
  private static final long SEED = 0x9e3779b97f4a7c15L;

  private BloomHash() {}

  public static long hash64(byte[] key) {
    return hash64(key, 0, key.length);
  }

  public static long hash64(byte[] key, int off, int len) {
    long h = SEED ^ (len * C1);
    int p = off;
    int end = off + len;
    while (end - p >= 8) {
      long w = 0;
      for (int i = 7; i >= 0; i--) {
        w = (w << 8) | (key[p + i] & 0xffL);
      }
      h = Long.rotateLeft(h ^ (w * C2), 29) * C1;
      p += 8;
    }
    if (p < end) {
      long w = 0;
      for (int i = end - 1; i >= p; i--) {
        w = (w << 8) | (key[i] & 0xffL);
      }
      h = Long.rotateLeft(h ^ (w * C2), 29) * C1;
    }
    return fmix64(h);
  }

  private static long fmix64(long h) {
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h;
  }
}

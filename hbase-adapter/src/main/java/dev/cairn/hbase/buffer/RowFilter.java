package dev.cairn.hbase.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The rows of one buffered file, as an in-memory Bloom filter: a read of one row skips the files
 * whose filter rules the row out before the host opens them. The host's own per-file filters
 * answer the same question, but each probe goes through its block cache (a key object, a map
 * lookup, a reference count per file); with tens of buffered files per read that walk, not the
 * data, was the cost of a read through the buffer. Built once, while the compaction that makes the
 * file a buffered input reads it from end to end, and immutable after.
 *
 * <p>Blocked: each row sets {@link #PROBES} bits within one 512-bit block chosen by its hash, so a
 * probe touches one cache line. At 10 bits per row the false-positive rate is about 1%. A filter
 * never answers false for a row it was given; {@link #ALL} answers true for every row (a file
 * whose rows were not collected).
 */
public final class RowFilter {
  /** Bits each row sets in its block. */
  public static final int PROBES = 6;
  /** The filter's size per row the caller expects. */
  public static final int BITS_PER_ROW = 10;
  /** The largest filter built; a file with more rows than fit gets {@link #ALL}. */
  public static final long MAX_BYTES = 16L << 20;

  private static final int BLOCK_WORDS = 8;
  private static final int BLOCK_BITS = BLOCK_WORDS * Long.SIZE;
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** The filter that holds every row. */
  public static final RowFilter ALL = new RowFilter(null);

  private final long[] words;

  private RowFilter(long[] words) {
    this.words = words;
  }

  /**
   * A builder for about {@code expectedRows} rows. More rows may be added at a higher false-positive
   * rate; a filter that would exceed {@link #MAX_BYTES} is not built ({@link Builder#build} gives
   * {@link #ALL}).
   */
  public static Builder builder(long expectedRows) {
    if (expectedRows < 0) {
      throw new IllegalArgumentException("expectedRows must be >= 0: " + expectedRows);
    }
    long bits = Math.max(1, expectedRows) * BITS_PER_ROW;
    long blocks = (bits + BLOCK_BITS - 1) / BLOCK_BITS;
    if (blocks * BLOCK_WORDS * Long.BYTES > MAX_BYTES) {
      return new Builder(null);
    }
    return new Builder(new long[(int) (blocks * BLOCK_WORDS)]);
  }

  /** The hash a filter is probed with; computed once per read, whatever the number of filters. */
  public static long hash(byte[] row, int offset, int length) {
    long h = 0x9E3779B97F4A7C15L ^ length;
    int i = offset;
    int end = offset + length;
    for (; i + Long.BYTES <= end; i += Long.BYTES) {
      h = Long.rotateLeft(h ^ mix((long) LONGS.get(row, i)), 27) * 0xC2B2AE3D27D4EB4FL;
    }
    long tail = 0;
    for (int shift = 0; i < end; i++, shift += 8) {
      tail |= (row[i] & 0xFFL) << shift;
    }
    return mix(h ^ mix(tail));
  }

  /** Whether the row of {@code hash} may be in the file; false only when it is not. */
  public boolean mightContain(long hash) {
    if (words == null) {
      return true;
    }
    int base = block(hash, words.length);
    long bits = probeBits(hash);
    for (int p = 0; p < PROBES; p++, bits >>>= 9) {
      int b = (int) bits & (BLOCK_BITS - 1);
      if ((words[base + (b >>> 6)] & (1L << b)) == 0) {
        return false;
      }
    }
    return true;
  }

  /** The filter's memory (0 for {@link #ALL}). */
  public long bytes() {
    return words == null ? 0 : (long) words.length * Long.BYTES;
  }

  /** The block: the hash's high half scaled to the block count. */
  private static int block(long hash, int wordCount) {
    long blocks = wordCount / BLOCK_WORDS;
    return (int) (((hash >>> 32) * blocks) >>> 32) * BLOCK_WORDS;
  }

  /** Nine bits per probe within the block, from a second scrambling of the whole hash. */
  private static long probeBits(long hash) {
    return hash * 0x9E3779B97F4A7C15L;
  }

  /** MurmurHash3's 64-bit finalizer. */
  private static long mix(long k) {
    k ^= k >>> 33;
    k *= 0xFF51AFD7ED558CCDL;
    k ^= k >>> 33;
    k *= 0xC4CEB9FE1A85EC53L;
    return k ^ (k >>> 33);
  }

  /** Collects one file's rows; not thread-safe. */
  public static final class Builder {
    private long[] words;

    private Builder(long[] words) {
      this.words = words;
    }

    /** Adds a row (a row added twice costs nothing more). */
    public void add(byte[] row, int offset, int length) {
      if (words == null) {
        return;
      }
      long hash = hash(row, offset, length);
      int base = block(hash, words.length);
      long bits = probeBits(hash);
      for (int p = 0; p < PROBES; p++, bits >>>= 9) {
        int b = (int) bits & (BLOCK_BITS - 1);
        words[base + (b >>> 6)] |= 1L << b;
      }
    }

    /** The filter of the rows added; the builder is spent. */
    public RowFilter build() {
      if (words == null) {
        return ALL;
      }
      RowFilter f = new RowFilter(words);
      words = null;
      return f;
    }
  }
}

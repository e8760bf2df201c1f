package dev.cairn.bench.workload;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Values as slices at random offsets of one seeded pool (as db_bench does), so that making a
 * value costs a copy, not a random-number draw per byte.
 *
 * <p>The pool's compressibility is a knob, db_bench's {@code --compression_ratio}: at a ratio
 * {@code r} below 1 the pool is made of 100-byte pieces, each {@code 100 * r} random printable
 * characters repeated to fill the piece, so that a compressor finds about {@code r} of the bytes
 * new. At 1 the pool is random bytes (all 256 values): incompressible, so that no engine gains from
 * compression another lacks, and what every run before the knob used.
 */
public final class Values {
  /** Incompressible values, the ratio every run used before the knob. */
  public static final double INCOMPRESSIBLE = 1.0;

  private static final int POOL_BYTES = 4 << 20;
  private static final int PIECE_BYTES = 100;

  private final byte[] pool;
  private final int valueBytes;
  private final double compressionRatio;

  /** Incompressible values of {@code valueBytes} bytes. */
  public Values(int valueBytes, long seed) {
    this(valueBytes, INCOMPRESSIBLE, seed);
  }

  /**
   * Values of {@code valueBytes} bytes of which about {@code compressionRatio} (in (0, 1]) is left
   * after compression.
   */
  public Values(int valueBytes, double compressionRatio, long seed) {
    if (valueBytes < 1 || valueBytes > POOL_BYTES / 4) {
      throw new IllegalArgumentException("value size " + valueBytes + " is out of range [1, " + POOL_BYTES / 4 + "]");
    }
    if (!(compressionRatio > 0 && compressionRatio <= 1)) {
      throw new IllegalArgumentException("compression ratio " + compressionRatio + " is out of range (0, 1]");
    }
    this.valueBytes = valueBytes;
    this.compressionRatio = compressionRatio;
    this.pool = new byte[POOL_BYTES];
    SplittableRandom random = new SplittableRandom(seed);
    if (compressionRatio == INCOMPRESSIBLE) {
      random.nextBytes(pool);
    } else {
      fillCompressible(pool, compressionRatio, random);
    }
  }

  private static void fillCompressible(byte[] pool, double ratio, SplittableRandom random) {
    int fresh = Math.max(1, (int) (PIECE_BYTES * ratio));
    for (int piece = 0; piece < pool.length; piece += PIECE_BYTES) {
      int end = Math.min(pool.length, piece + PIECE_BYTES);
      for (int i = piece; i < Math.min(end, piece + fresh); i++) {
        pool[i] = (byte) (' ' + random.nextInt(95)); // printable ASCII, as db_bench's RandomString
      }
      for (int i = piece + fresh; i < end; i++) {
        pool[i] = pool[i - fresh];
      }
    }
  }

  public int valueBytes() {
    return valueBytes;
  }

  public double compressionRatio() {
    return compressionRatio;
  }

  public byte[] next(SplittableRandom random) {
    int offset = random.nextInt(POOL_BYTES - valueBytes);
    return Arrays.copyOfRange(pool, offset, offset + valueBytes);
  }
}

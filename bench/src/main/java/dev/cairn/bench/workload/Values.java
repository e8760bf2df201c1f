package dev.cairn.bench.workload;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Incompressible values: slices at random offsets of one seeded buffer of random bytes (as
 * db_bench does), so that no engine gains from compression that another lacks and making a value
 * costs a copy, not a random-number draw per byte.
 */
public final class Values {
  private static final int POOL_BYTES = 4 << 20;

  private final byte[] pool;
  private final int valueBytes;

  public Values(int valueBytes, long seed) {
    if (valueBytes < 1 || valueBytes > POOL_BYTES / 4) {
      throw new IllegalArgumentException("value size " + valueBytes + " is out of range [1, " + POOL_BYTES / 4 + "]");
    }
    this.valueBytes = valueBytes;
    this.pool = new byte[POOL_BYTES];
    new SplittableRandom(seed).nextBytes(pool);
  }

  public int valueBytes() {
    return valueBytes;
  }

  public byte[] next(SplittableRandom random) {
    int offset = random.nextInt(POOL_BYTES - valueBytes);
    return Arrays.copyOfRange(pool, offset, offset + valueBytes);
  }
}

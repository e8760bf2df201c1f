package dev.cairn.bench.engine.cassandra;

import java.nio.ByteBuffer;
import java.util.function.ToLongFunction;

/**
 * Record ids laid out on Cassandra partitions so that the runner's key order survives the
 * Murmur3 partitioner. Record id {@code i} is the row {@code (b, k) = (key(bucketOf(i)), i)}: ids
 * are grouped into buckets of {@link #bucketRecords()} consecutive ids, one partition each, and
 * the partition key of bucket {@code j} of {@code B} is a bigint whose Murmur3 token falls in the
 * {@code j}-th of {@code B} equal slices of the token ring. So partition tokens increase with the
 * bucket number, rows within a partition are ordered by {@code k = i}, and the order of (token,
 * k), which is the order Cassandra stores and scans, is the order of record ids: a contiguous id
 * range (rangehot's hot range) is a contiguous token range and sits in few SSTables per level.
 *
 * <p>The search ({@link #search}) hashes the candidates 0, 1, 2, ... in turn and gives each one
 * to its slice if that slice has no key yet, until every slice has one: the coupon collector's
 * {@code B·H(B) ≈ B (ln B + 0.58)} tries on average; {@link #maxTries} bounds it (the chance of
 * needing more is below {@code e^-40}). The candidates are fixed, so every run, and the test, sees
 * the same keys for the same {@code B}.
 *
 * <p>Ids past the last bucket's range (inserts beyond the planned capacity) go to the last bucket:
 * its token is the largest, so key order still holds; that partition merely grows.
 */
public final class TokenBuckets {
  private final int bucketRecords;
  private final long[] keys;
  private final long[] tokens;
  private final long tries;

  private TokenBuckets(int bucketRecords, long[] keys, long[] tokens, long tries) {
    this.bucketRecords = bucketRecords;
    this.keys = keys;
    this.tokens = tokens;
    this.tries = tries;
  }

  /**
   * Finds bucket keys for ids {@code [0, capacityIds)} in buckets of {@code bucketRecords}.
   *
   * @param token the Murmur3 token of a serialized partition key (a bigint's 8 bytes)
   * @throws IllegalStateException if {@link #maxTries} candidates do not fill every slice
   */
  public static TokenBuckets search(long capacityIds, int bucketRecords, ToLongFunction<ByteBuffer> token) {
    if (bucketRecords < 1 || capacityIds < 1) {
      throw new IllegalArgumentException("capacity " + capacityIds + " and bucket size " + bucketRecords
          + " must be positive");
    }
    long bucketCount = (capacityIds + bucketRecords - 1) / bucketRecords;
    if (bucketCount > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(bucketCount + " buckets are too many");
    }
    int b = (int) bucketCount;
    long[] keys = new long[b];
    long[] tokens = new long[b];
    boolean[] filled = new boolean[b];
    long limit = maxTries(b);
    int missing = b;
    long candidate = 0;
    while (missing > 0) {
      if (candidate >= limit) {
        throw new IllegalStateException("no key found for " + missing + " of " + b + " token slices in "
            + limit + " tries: is the token function Murmur3?");
      }
      long t = token.applyAsLong(bigint(candidate));
      int slice = slice(t, b);
      if (!filled[slice]) {
        filled[slice] = true;
        keys[slice] = candidate;
        tokens[slice] = t;
        missing--;
      }
      candidate++;
    }
    return new TokenBuckets(bucketRecords, keys, tokens, candidate);
  }

  /** The most candidates {@link #search} hashes for {@code buckets} slices. */
  public static long maxTries(int buckets) {
    return (long) buckets * ((long) Math.ceil(Math.log(buckets)) + 40) + 1000;
  }

  /** Which of {@code buckets} equal slices of the signed 64-bit token ring holds {@code token}. */
  static int slice(long token, int buckets) {
    if (buckets == 1) {
      return 0;
    }
    long offset = token - Long.MIN_VALUE; // unsigned distance from the ring's start
    long width = Long.divideUnsigned(-1L, buckets) + 1; // ceil(2^64 / buckets) for buckets > 1
    return (int) Long.divideUnsigned(offset, width);
  }

  /** A bigint partition key as Cassandra serializes it: 8 bytes, big-endian. */
  public static ByteBuffer bigint(long value) {
    ByteBuffer b = ByteBuffer.allocate(Long.BYTES);
    b.putLong(0, value);
    return b;
  }

  public int bucketRecords() {
    return bucketRecords;
  }

  public int buckets() {
    return keys.length;
  }

  /** The bucket of record id {@code id}; ids past the capacity go to the last bucket. */
  public int bucketOf(long id) {
    return (int) Math.min(id / bucketRecords, keys.length - 1L);
  }

  /** The partition key ({@code b}) of a bucket. */
  public long key(int bucket) {
    return keys[bucket];
  }

  /** The Murmur3 token of a bucket's partition key; increasing with the bucket. */
  public long token(int bucket) {
    return tokens[bucket];
  }

  /** Candidates hashed to find every key. */
  public long tries() {
    return tries;
  }
}

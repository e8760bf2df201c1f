package dev.cairn.db.base;

/**
 * The bucket layout of a latency histogram: values below 256 each have a bucket of their own;
 * above that, each power of two {@code [2^e, 2^(e+1))} is split into 128 buckets of width
 * {@code 2^(e-7)}. So a value is known to within 1/128 of itself (better than two significant
 * digits) in 128 buckets per doubling: 3,328 buckets cover one microsecond to an hour.
 *
 * <p>This is the layout HdrHistogram uses for two significant digits, written out so the engine
 * does not depend on a library for forty lines of arithmetic.
 */
final class LatencyBuckets {
  /** Sub-buckets per power of two, as a shift: 128. */
  private static final int SUB_BITS = 7;
  private static final int SUB_COUNT = 1 << SUB_BITS;

  private LatencyBuckets() {}

  /** How many buckets hold every value up to {@code maxValue}. */
  static int count(long maxValue) {
    return index(maxValue) + 1;
  }

  /** The bucket of {@code value}, which must be at least 0. */
  static int index(long value) {
    if (value < 2 * SUB_COUNT) {
      return (int) value;
    }
    int exponent = 63 - Long.numberOfLeadingZeros(value);
    int shift = exponent - SUB_BITS;
    return shift * SUB_COUNT + (int) (value >>> shift);
  }

  /** The smallest value that falls in bucket {@code index}. */
  static long lowest(int index) {
    if (index < 2 * SUB_COUNT) {
      return index;
    }
    int shift = (index >>> SUB_BITS) - 1;
    long mantissa = index - (long) shift * SUB_COUNT;
    return mantissa << shift;
  }

  /** The largest value that falls in bucket {@code index}. */
  static long highest(int index) {
    return lowest(index + 1) - 1;
  }
}

package dev.cairn.bench.features;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The data and reads of the range-delete experiment, drawn once from the seed so that every engine,
 * method and round gets the same, and no generator runs inside a timed loop.
 *
 * <p>Record {@code i} (from 0) has the key {@code "user%012d"} (16 bytes; fixed width, so keys sort
 * as their numbers do) and a {@value #VALUE_BYTES}-byte value that is a function of {@code i} and
 * the seed alone: a slice of one seeded pool of random bytes at an offset hashed from {@code i}, so
 * that a value read back is checked without storing one per key, and no codec gains on it. The
 * deleted records are the contiguous {@code [45%, 55%)} of the records ({@link #deleteFrom},
 * {@link #deleteTo}); the dropped ones, deleted later on the compacted database (a tenant dropped),
 * the wider {@code [5%, 95%)} ({@link #dropFrom}, {@link #dropTo}). The reads: {@code gets} record numbers uniform over all records (the deleted
 * ones included) and {@code scans} scan starts uniform likewise, their keys made up front.
 */
final class RangeDeleteWorkload {
  static final int KEY_BYTES = 16;
  static final int VALUE_BYTES = 100;
  /** Entries a scan reads at most (fewer at the end of the key space). */
  static final int SCAN_LENGTH = 50;
  /** The post-compaction check reads every this-many-th record. */
  static final int VERIFY_STRIDE = 97;
  /** Puts, and per-key deletes, per write batch: the way to write many keys on either engine. */
  static final int BATCH = 1000;

  private static final int POOL_BYTES = 1 << 20;
  private static final byte[] PREFIX = "user".getBytes(StandardCharsets.US_ASCII);

  private final long records;
  private final long deleteFrom;
  private final long deleteTo;
  private final long dropFrom;
  private final long dropTo;
  private final byte[] pool;
  private final byte[][] getKeys;
  private final byte[][] scanKeys;

  private RangeDeleteWorkload(long records, byte[] pool, byte[][] getKeys, byte[][] scanKeys) {
    this.records = records;
    this.deleteFrom = records * 45 / 100;
    this.deleteTo = deleteFrom + records / 10;
    this.dropFrom = records * 5 / 100;
    this.dropTo = records * 95 / 100;
    this.pool = pool;
    this.getKeys = getKeys;
    this.scanKeys = scanKeys;
  }

  /**
   * {@code records} records (at least 10, so that the deleted tenth is not empty), {@code gets}
   * point reads and {@code scans} scans drawn from {@code seed}.
   */
  static RangeDeleteWorkload draw(long records, int gets, int scans, long seed) {
    if (records < 10 || records > 999_999_999_999L) {
      throw new IllegalArgumentException("records must be in [10, 10^12), got " + records);
    }
    SplittableRandom random = new SplittableRandom(seed);
    byte[] pool = new byte[POOL_BYTES];
    random.nextBytes(pool);
    byte[][] getKeys = new byte[gets][];
    for (int j = 0; j < gets; j++) {
      getKeys[j] = key(random.nextLong(records));
    }
    byte[][] scanKeys = new byte[scans][];
    for (int j = 0; j < scans; j++) {
      scanKeys[j] = key(random.nextLong(records));
    }
    return new RangeDeleteWorkload(records, pool, getKeys, scanKeys);
  }

  long records() {
    return records;
  }

  /** The first deleted record: 45% into the key space. */
  long deleteFrom() {
    return deleteFrom;
  }

  /** One past the last deleted record: a tenth of the records after {@link #deleteFrom}. */
  long deleteTo() {
    return deleteTo;
  }

  long deleted() {
    return deleteTo - deleteFrom;
  }

  boolean isDeleted(long i) {
    return i >= deleteFrom && i < deleteTo;
  }

  /** The first dropped record: 5% into the key space. */
  long dropFrom() {
    return dropFrom;
  }

  /** One past the last dropped record: 95% into the key space. */
  long dropTo() {
    return dropTo;
  }

  /** Whether record {@code i} is gone once the drop is done too: deleted or dropped. */
  boolean isGoneAfterDrop(long i) {
    return isDeleted(i) || (i >= dropFrom && i < dropTo);
  }

  /** The first live record at or after {@code i}; {@link #records} past the last. */
  long nextLive(long i) {
    long next = isDeleted(i) ? deleteTo : i;
    return Math.min(next, records);
  }

  /** Record {@code i}'s key, {@code "user%012d"}. */
  static byte[] key(long i) {
    byte[] k = Arrays.copyOf(PREFIX, KEY_BYTES);
    long v = i;
    for (int p = KEY_BYTES - 1; p >= PREFIX.length; p--) {
      k[p] = (byte) ('0' + v % 10);
      v /= 10;
    }
    return k;
  }

  /** The record number {@code key} names, or -1 for a key not of {@link #key}'s form. */
  static long index(byte[] key) {
    if (key.length != KEY_BYTES || !Arrays.equals(key, 0, PREFIX.length, PREFIX, 0, PREFIX.length)) {
      return -1;
    }
    long v = 0;
    for (int p = PREFIX.length; p < KEY_BYTES; p++) {
      int d = key[p] - '0';
      if (d < 0 || d > 9) {
        return -1;
      }
      v = v * 10 + d;
    }
    return v;
  }

  /** Record {@code i}'s value (a fresh copy). */
  byte[] value(long i) {
    int offset = offset(i);
    return Arrays.copyOfRange(pool, offset, offset + VALUE_BYTES);
  }

  /** Whether {@code value} is record {@code i}'s, compared in place (no copy). */
  boolean isValueOf(long i, byte[] value) {
    int offset = offset(i);
    return value != null && Arrays.equals(value, 0, value.length, pool, offset, offset + VALUE_BYTES);
  }

  private static int offset(long i) {
    // SplitMix64's finaliser: neighbouring records get unrelated slices.
    long z = (i + 0x9E3779B97F4A7C15L) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z ^= z >>> 31;
    return (int) Math.floorMod(z, (long) (POOL_BYTES - VALUE_BYTES));
  }

  int gets() {
    return getKeys.length;
  }

  /** The key of point read {@code j}. */
  byte[] getKey(int j) {
    return getKeys[j];
  }

  int scans() {
    return scanKeys.length;
  }

  /** The key scan {@code j} seeks to. */
  byte[] scanKey(int j) {
    return scanKeys[j];
  }
}

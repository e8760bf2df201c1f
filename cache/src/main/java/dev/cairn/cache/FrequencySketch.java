package dev.cairn.cache;

/**
 * How often each block was asked for lately, approximately: TinyLFU's count-min sketch of 4-bit
 * counters, aged by halving every counter once it has counted ten times its capacity.
 *
 * <p>A key's frequency is the smallest of its {@value #DEPTH} counters, each in a different place
 * chosen by multiplying the key's hash by an odd constant and taking the top bits, so it is never
 * below the number of times the key was counted since the last halving (up to 15) and is above it
 * only when every one of its counters is shared with other keys. Sixteen counters pack into a
 * {@code long}.
 *
 * <p>Not thread-safe: each {@link ClockBlockTable} shard uses its own under its lock.
 */
final class FrequencySketch {
  static final int DEPTH = 4;
  static final int MAX_COUNT = 15;
  /** Counted events per capacity entry before every counter is halved (Caffeine's ratio). */
  static final int AGING_RATIO = 10;
  /** The most keys a sketch is sized for: 2^26 longs, 512 MiB of counters. */
  static final int MAX_CAPACITY = 1 << 26;

  private static final long[] SEEDS = {
    0x9E3779B97F4A7C15L, 0xC2B2AE3D27D4EB4FL, 0x165667B19E3779F9L, 0xD6E8FEB86659FD93L
  };
  private static final long HALVE_MASK = 0x7777_7777_7777_7777L;

  private long[] table;
  private int counterBits;
  private int capacity;
  private int additions;
  private int agingPeriod;

  /** A sketch for about {@code expectedEntries} distinct keys (at least 16). */
  FrequencySketch(int expectedEntries) {
    resize(expectedEntries);
  }

  /** The number of distinct keys the sketch is sized for. */
  int capacity() {
    return capacity;
  }

  /**
   * Grows the sketch to about {@code entries} keys if it is smaller, forgetting what it counted:
   * a sketch too small for its keys shares every counter and tells them apart no more. True if
   * it grew.
   */
  boolean ensureCapacity(int entries) {
    if (entries <= capacity || capacity == MAX_CAPACITY) {
      // At the cap it stays as it is: resizing to the same size would only forget everything.
      return false;
    }
    resize(entries);
    return true;
  }

  private void resize(int expectedEntries) {
    int entries = Integer.highestOneBit(Math.max(16, Math.min(expectedEntries, MAX_CAPACITY)) - 1) << 1;
    this.capacity = entries;
    // One long (16 counters) per expected key: four counters a key, four times spread.
    this.table = new long[entries];
    this.counterBits = Integer.numberOfTrailingZeros(entries) + 4;
    this.agingPeriod = AGING_RATIO * entries;
    this.additions = 0;
  }

  /** Counts one more request for the key of {@code hash} (a well-mixed 64-bit hash). */
  void increment(long hash) {
    boolean counted = false;
    for (int i = 0; i < DEPTH; i++) {
      int counter = counter(hash, i);
      int shift = (counter & 15) << 2;
      int index = counter >>> 4;
      if (((table[index] >>> shift) & MAX_COUNT) != MAX_COUNT) {
        table[index] += 1L << shift;
        counted = true;
      }
    }
    if (counted && ++additions >= agingPeriod) {
      halve();
    }
  }

  /** The key's estimated requests since the counters were last halved, at most 15. */
  int frequency(long hash) {
    int frequency = MAX_COUNT;
    for (int i = 0; i < DEPTH; i++) {
      int counter = counter(hash, i);
      frequency = Math.min(frequency, (int) ((table[counter >>> 4] >>> ((counter & 15) << 2)) & MAX_COUNT));
    }
    return frequency;
  }

  private int counter(long hash, int row) {
    return (int) ((hash * SEEDS[row]) >>> (64 - counterBits));
  }

  /** Ages the sketch: every counter halved, so old requests weigh half as much as new ones. */
  private void halve() {
    for (int i = 0; i < table.length; i++) {
      table[i] = (table[i] >>> 1) & HALVE_MASK;
    }
    additions >>>= 1;
  }

  /** A well-mixed hash of a block's key (MurmurHash3's finalizer over both fields). */
  static long hash(long fileNumber, long offset) {
    long h = fileNumber * 0x9E3779B97F4A7C15L + offset;
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB9FE1A85EC53L;
    h ^= h >>> 33;
    return h;
  }
}

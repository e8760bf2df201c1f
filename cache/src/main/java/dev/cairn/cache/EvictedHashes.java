package dev.cairn.cache;

/**
 * The hashes of blocks a {@link ClockBlockTable} shard recently let go of one way (turned away at
 * the window's exit, or given up by the ring), to tell whether one asked for again left lately:
 * ARC's ghost lists, approximated. A direct-mapped table of 64-bit hashes, each stamped with when
 * it was evicted (the shard counts its inserts): adding a hash overwrites whatever held its slot,
 * so the set also forgets at random as it is refilled, and never holds more than its slots. Zero
 * marks an empty slot; a block whose hash is zero is not remembered (one in 2^64).
 *
 * <p>Not thread-safe: a shard uses its own under its lock.
 */
final class EvictedHashes {
  /** The most slots a set grows to: 2^22, 64 MiB with their stamps, for a shard of that many blocks. */
  static final int MAX_SLOTS = 1 << 22;

  private long[] slots;
  /** Per slot, when its block was evicted, on the caller's clock. */
  private long[] stamps;

  EvictedHashes() {
    resize(16);
  }

  /** Grows to at least {@code entries} slots (a power of two, capped), keeping what fits. */
  void ensureCapacity(int entries) {
    if (entries > slots.length && slots.length < MAX_SLOTS) {
      long[] oldSlots = slots;
      long[] oldStamps = stamps;
      resize(Integer.highestOneBit(Math.min(entries, MAX_SLOTS) - 1) << 1);
      for (int i = 0; i < oldSlots.length; i++) {
        if (oldSlots[i] != 0) {
          int slot = slot(oldSlots[i]);
          // Two old slots may meet in one: the later eviction stays.
          if (slots[slot] == 0 || stamps[slot] < oldStamps[i]) {
            slots[slot] = oldSlots[i];
            stamps[slot] = oldStamps[i];
          }
        }
      }
    }
  }

  private void resize(int count) {
    slots = new long[count];
    stamps = new long[count];
  }

  /** Remembers {@code hash}, evicted at {@code now}, in place of whatever its slot held. */
  void add(long hash, long now) {
    if (hash != 0) {
      int slot = slot(hash);
      slots[slot] = hash;
      stamps[slot] = now;
    }
  }

  /**
   * Whether {@code hash} is remembered as evicted less than {@code within} before {@code now};
   * if it is remembered at all, it is forgotten (one return counts once).
   */
  boolean remove(long hash, long now, long within) {
    if (hash == 0) {
      return false;
    }
    int slot = slot(hash);
    if (slots[slot] != hash) {
      return false;
    }
    slots[slot] = 0;
    return now - stamps[slot] < within;
  }

  int capacity() {
    return slots.length;
  }

  private int slot(long hash) {
    // Top bits of the hash times an odd constant: the shard chose its blocks by the hash's own
    // top bits, so those are alike within a shard.
    return (int) ((hash * 0x9E3779B97F4A7C15L) >>> (64 - Integer.numberOfTrailingZeros(slots.length)));
  }
}

package dev.cairn.cache;

import java.util.function.Function;

/**
 * The map under a block cache and the policy that decides what it evicts for room: the one part
 * of the cache that differs between {@link EvictionPolicy}s. Ownership,
 * the per-file index, warmth and the counters live in the cache around it.
 *
 * <p>Every removal, for room or asked for, is reported to the {@link RemovalListener} given at
 * construction, once per cached block, after the block has left the map. Thread-safe.
 */
interface BlockTable {
  /** A table of {@code policy} holding at most {@code capacityBytes} of block contents. */
  static BlockTable create(EvictionPolicy policy, long capacityBytes, RemovalListener listener) {
    return switch (policy) {
      case TINY_LFU -> new CaffeineBlockTable(capacityBytes, listener);
      case LRU -> new LruBlockTable(capacityBytes, listener);
      case TINY_LFU_CLOCK -> new ClockBlockTable(capacityBytes, listener);
    };
  }

  /** Told of every block that leaves the table; {@code forRoom} when evicted for capacity. */
  interface RemovalListener {
    void removed(BlockKey key, SharedBlock block, boolean forRoom);
  }

  /** The cached block or null; a user read, which the policy may record. */
  SharedBlock get(BlockKey key);

  /** The cached block or null, leaving the policy's recency and frequency alone. */
  SharedBlock peek(BlockKey key);

  /**
   * The block cached under {@code key}, or else the one {@code create} makes, cached now (and
   * possibly evicted at once if the policy rejects it). {@code create} runs at most once, only
   * when the key is absent, under a lock that keeps a second caller of the same key waiting.
   */
  SharedBlock computeIfAbsent(BlockKey key, Function<BlockKey, SharedBlock> create);

  /**
   * {@link #computeIfAbsent} for a block just written and not read yet (a flush's output, cached
   * because the newest data is expected to be read): it is not a read, so a present block's
   * recency is left alone and a policy that counts requests does not count this as one. By
   * default, as {@link #computeIfAbsent}.
   */
  default SharedBlock computeIfAbsentWritten(BlockKey key, Function<BlockKey, SharedBlock> create) {
    return computeIfAbsent(key, create);
  }

  void remove(BlockKey key);

  /**
   * The largest block the table can keep: a larger one, offered, would evict others for room and
   * then leave itself, so the cache does not offer it. A sharded table's is its smallest shard's.
   */
  long largestBlock();

  /**
   * The capacity the policy keeps for new blocks now, before they face admission; 0 for a policy
   * without such a window or that does not say.
   */
  default long windowCapacity() {
    return 0;
  }

  /** Removes every block; each is reported as removed not for room. */
  void clear();

  /** Runs evictions and removal notices the policy deferred, if it defers any. */
  void runPendingMaintenance();
}

package dev.cairn.cache;

/** What a block cache evicts for room, and so which blocks it admits. */
public enum EvictionPolicy {
  /**
   * Caffeine's W-TinyLFU: a new block is admitted only if it looks read more often than the block
   * it would evict. Resists scans and keeps a stable hot set; turns away blocks that are new by
   * construction, such as those of a workload reading its newest writes.
   */
  TINY_LFU,
  /**
   * Least recently used, sharded as LevelDB's and RocksDB's caches are: every block is admitted
   * and the one read longest ago leaves.
   */
  LRU,
  /**
   * W-TinyLFU's admission over a CLOCK, sharded: a newcomer enters a small window, and leaves it
   * into the main part only if it looks read more often than the block it would evict. A hit sets
   * one bit, and an insert does its own eviction work, so no read waits for another's bookkeeping.
   * The default (docs/decisions/0016).
   */
  TINY_LFU_CLOCK
}

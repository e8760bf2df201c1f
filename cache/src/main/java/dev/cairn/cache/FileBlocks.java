package dev.cairn.cache;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the cache knows about one table file: which of its blocks are cached, and its lookup
 * counters.
 *
 * <p>The index maps offset to the exact {@link SharedBlock} instance cached under it, and removal
 * is conditional on that instance. This keeps the index exact when an evicted block's removal
 * notice arrives after the same key was cached again: the late notice then removes nothing.
 * With a plain set of offsets that notice would drop the new block's offset, and
 * {@code evictFile} would leave the new block behind.
 */
final class FileBlocks {
  private final ConcurrentHashMap<Long, SharedBlock> cached = new ConcurrentHashMap<>();
  final LongAdder hits = new LongAdder();
  final LongAdder misses = new LongAdder();

  void added(long offset, SharedBlock block) {
    cached.put(offset, block);
  }

  void removed(long offset, SharedBlock block) {
    cached.remove(offset, block);
  }

  boolean isCached(long offset) {
    return cached.containsKey(offset);
  }

  /** The cached block at {@code offset}, or null. */
  SharedBlock block(long offset) {
    return cached.get(offset);
  }

  /** A weakly consistent view of the cached blocks. */
  Iterable<SharedBlock> blocks() {
    return cached.values();
  }

  long cachedBlockCount() {
    return cached.size();
  }

  /** A weakly consistent view of the cached offsets. */
  Set<Long> cachedOffsets() {
    return cached.keySet();
  }

  FileCacheStats snapshot(long fileNumber) {
    return new FileCacheStats(fileNumber, hits.sum(), misses.sum(), cached.size());
  }
}

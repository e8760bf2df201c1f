package dev.cairn.bench.engine;

import java.util.concurrent.atomic.LongAdder;
import org.rocksdb.PerfContext;
import org.rocksdb.PerfLevel;
import org.rocksdb.RocksDB;

/**
 * Data-block cache hits of the reads the benchmark's own threads make through {@link RocksDbEngine},
 * counted from RocksDB's per-thread {@link PerfContext}.
 *
 * <p>Why not the {@code BLOCK_CACHE_DATA_HIT} ticker: RocksDB's compactions look their input
 * blocks up in the block cache too (with {@code fill_cache=false}), and the ticker counts those
 * lookups; a perf context belongs to one thread, and compactions run on RocksDB's own threads,
 * whose contexts are never read here. A read brackets itself with {@link #beforeRead} and
 * {@link #afterRead}: the calling thread's context is zeroed, the read runs, and the context's
 * cache hits minus its index and filter hits are added to a shared sum that the runner's sampler
 * reads. Index and filter blocks are held by the table readers, not cached
 * ({@code cache_index_and_filter_blocks=false}, RocksDB's default), so those two terms are 0
 * today; they are subtracted so that the count stays data blocks only if that setting changes.
 *
 * <p>Thread-safe: every thread has its own context, and the sum is a {@link LongAdder}.
 */
final class RocksDbUserReadHits {
  private final LongAdder dataHits = new LongAdder();
  private final LongAdder dataReads = new LongAdder();
  private final ThreadLocal<PerfContext> contexts;

  RocksDbUserReadHits(RocksDB db) {
    // The perf level is per thread; ENABLE_COUNT (counters, no timers) is the cheapest level
    // that keeps the block-cache counters.
    this.contexts = ThreadLocal.withInitial(() -> {
      db.setPerfLevel(PerfLevel.ENABLE_COUNT);
      return db.getPerfContext();
    });
  }

  /** Zeroes the calling thread's counters; call right before a get or a scan. */
  void beforeRead() {
    contexts.get().reset();
  }

  /** Adds the data-block hits of the calling thread's read since {@link #beforeRead}. */
  void afterRead() {
    PerfContext c = contexts.get();
    dataHits.add(c.getBlockCacheHitCount() - c.getBlockCacheIndexHitCount() - c.getBlockCacheFilterHitCount());
    dataReads.add(c.getBlockReadCount() - c.getIndexBlockReadCount() - c.getFilterBlockReadCount()
        - c.getCompressionDictBlockReadCount());
  }

  /** Data blocks the counted reads read from their files (cache misses that went to the file). */
  long dataReads() {
    return dataReads.sum();
  }

  /** Data-block cache hits of all reads counted so far. */
  long dataHits() {
    return dataHits.sum();
  }
}

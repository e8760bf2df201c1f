package dev.cairn.db;

import dev.cairn.cache.CacheStats;
import dev.cairn.cache.EvictionPolicy;
import dev.cairn.db.base.MemtableBudget;
import dev.cairn.db.base.SharedPools;
import dev.cairn.table.cache.TableCacheBudget;

/** The facade over {@link SharedPools} that the API's {@code SharedResources} holds. */
public final class SharedState {
  private final SharedPools pools;

  public SharedState(long cacheBytes, EvictionPolicy policy, int backgroundThreads, long memtableBudgetBytes,
      int tableCacheFiles, long tableCacheBytes) {
    this.pools = new SharedPools(cacheBytes, policy, backgroundThreads, memtableBudgetBytes,
        TableCacheBudget.shared(tableCacheFiles, tableCacheBytes));
  }

  /** Tables the databases' table caches keep now, together. */
  public int tableCacheFiles() {
    return pools.tableCacheBudget().files();
  }

  /** Table files open now, over every database. */
  public int openTableFiles() {
    return pools.tableCacheBudget().openFileCount();
  }

  /** Bytes of index and filter the databases' open tables pin now, together. */
  public long tableCacheBytes() {
    return pools.tableCacheBudget().bytes();
  }

  SharedPools pools() {
    return pools;
  }

  /** A database is about to open on these: see {@link SharedPools#reserve}. */
  public void reserve() {
    pools.reserve();
  }

  public CacheStats cacheStats() {
    return pools.cache().stats();
  }

  /** Bytes the databases' memtables hold now; 0 without a budget. */
  public long memtableBytes() {
    MemtableBudget budget = pools.budget();
    return budget == null ? 0 : budget.usedBytes();
  }

  public int openDatabases() {
    return pools.openDatabases();
  }

  public void close() {
    pools.close();
  }
}

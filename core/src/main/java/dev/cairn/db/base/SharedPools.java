package dev.cairn.db.base;

import dev.cairn.cache.BlockCache;
import dev.cairn.cache.EvictionPolicy;
import dev.cairn.cache.OffHeapBlockCache;
import dev.cairn.cache.ScopedBlockCache;
import dev.cairn.table.cache.TableCacheBudget;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What several databases share ({@code dev.cairn.SharedResources}): one block cache, each
 * database's blocks in a scope of their own; flush threads and compaction threads, each database's
 * tasks in a {@link TaskGroup}; a timer thread for their periodic tasks; and optionally a {@link
 * MemtableBudget}. Flushes have threads of
 * their own so that no database's writes wait behind another's long compaction.
 */
public final class SharedPools {
  private final OffHeapBlockCache cache;
  private final ExecutorService flushThreads;
  private final ExecutorService compactionThreads;
  /** One thread for every database's periodic tasks (trim, DLC's monitor, the idle drain). */
  private final ScheduledExecutorService timers;
  private final int compactionThreadCount;
  private final MemtableBudget budget;
  private final TableCacheBudget tableCacheBudget;
  private final AtomicLong nextScope = new AtomicLong();

  // Guarded by this.
  private int openDatabases;
  private boolean closed;

  /**
   * @param backgroundThreads at least 2: a quarter (at least one) for flushes, the rest for compactions
   * @param memtableBudgetBytes 0 for none
   * @param tableCacheBudget the open tables of every database together
   */
  public SharedPools(long cacheBytes, EvictionPolicy policy, int backgroundThreads, long memtableBudgetBytes,
      TableCacheBudget tableCacheBudget) {
    this.tableCacheBudget = tableCacheBudget;
    this.cache = new OffHeapBlockCache(cacheBytes, policy);
    int flushes = Math.max(1, backgroundThreads / 4);
    this.compactionThreadCount = backgroundThreads - flushes;
    this.flushThreads = Executors.newFixedThreadPool(flushes, named("cairn-shared-flush-"));
    this.compactionThreads = Executors.newFixedThreadPool(compactionThreadCount, named("cairn-shared-compaction-"));
    this.timers = Executors.newSingleThreadScheduledExecutor(named("cairn-shared-timer-"));
    this.budget = memtableBudgetBytes == 0 ? null : new MemtableBudget(memtableBudgetBytes);
  }

  private static java.util.concurrent.ThreadFactory named(String prefix) {
    AtomicInteger ids = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + ids.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * A database is about to open on these pools: counted until {@link #released}, so that {@link
   * #close} refuses meanwhile. Throws if the pools are closed.
   */
  public synchronized void reserve() {
    if (closed) {
      throw new IllegalStateException("these shared resources are closed");
    }
    openDatabases++;
  }

  /** The database {@link #reserve} counted has closed, or failed to open. */
  public synchronized void released() {
    openDatabases--;
  }

  /** An opening database's share of the cache. */
  BlockCache openShare() {
    return new ScopedBlockCache(cache, nextScope.getAndIncrement());
  }

  public TaskGroup flushGroup() {
    return new TaskGroup(flushThreads);
  }

  public TaskGroup compactionGroup() {
    return new TaskGroup(compactionThreads);
  }

  /** How many compactions of one database may run at once: as many as there are threads for them. */
  int compactionThreads() {
    return compactionThreadCount;
  }

  /** The timer thread the databases' periodic tasks share ({@link PeriodicTask}). */
  ScheduledExecutorService timers() {
    return timers;
  }

  /** The bounds of every database's open tables together. */
  public TableCacheBudget tableCacheBudget() {
    return tableCacheBudget;
  }

  /** The memtable budget, or null for none. */
  public MemtableBudget budget() {
    return budget;
  }

  public BlockCache cache() {
    return cache;
  }

  public synchronized int openDatabases() {
    return openDatabases;
  }

  /**
   * Stops the threads and frees the cache; a second call does nothing.
   *
   * @throws IllegalStateException if a database still uses the pools
   */
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      if (openDatabases > 0) {
        throw new IllegalStateException(openDatabases + " database(s) still use these shared resources: close them first");
      }
      closed = true;
    }
    timers.shutdownNow();
    flushThreads.shutdown();
    compactionThreads.shutdown();
    try {
      flushThreads.awaitTermination(1, TimeUnit.MINUTES);
      compactionThreads.awaitTermination(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    cache.close();
  }
}

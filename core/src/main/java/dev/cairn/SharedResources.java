package dev.cairn;

import dev.cairn.cache.CacheStats;
import dev.cairn.cache.EvictionPolicy;
import dev.cairn.db.SharedState;

/**
 * A block cache, background threads and a memtable budget that many databases of one process use
 * at once, passed to {@link Cairn#open(java.nio.file.Path, Options, SharedResources)}: the way to
 * run dozens of databases in one JVM within one memory and thread budget (docs/operations.md,
 * "Many databases in one process").
 *
 * <ul>
 *   <li>the cache: each database's blocks are keyed apart, its own hits and misses are counted in
 *       its {@link Stats}, and closing it drops its blocks;
 *   <li>the threads: a quarter (at least one) flush the databases' memtables, the rest compact;
 *       each database's compactions queue for them; one more thread runs every database's
 *       periodic tasks (the buffer's trim, DLC's monitor, the idle drain);
 *   <li>the open tables: one budget of open files and of the heap their indexes and filters pin
 *       for all the databases together ({@link Builder#tableCacheFiles}, {@link
 *       Builder#tableCacheBytes}): while the heap bound is passed, a database takes room from
 *       the one pinning the most bytes while that one pins more, then evicts its own, and the
 *       files that opened longest ago close first, whichever database's, their tables kept;
 *   <li>the memtable budget (optional): when the databases' active memtables hold seven eighths
 *       of it, a database that writes switches its memtable for a flush; over the budget, writers
 *       wait for the flushes under way. A database that stops writing keeps its active memtable
 *       until it writes, flushes or closes.
 * </ul>
 *
 * Close it after the databases that use it.
 */
public final class SharedResources implements AutoCloseable {
  private final SharedState pools;
  private final long memtableBudgetBytes;

  private SharedResources(Builder b) {
    this.pools = new SharedState(b.blockCacheBytes, b.blockCacheEvictionPolicy, b.backgroundThreads, b.memtableBudgetBytes,
        b.tableCacheFiles != 0 ? b.tableCacheFiles : TableCacheBounds.filesForThisProcess(),
        b.tableCacheBytes != 0 ? b.tableCacheBytes : TableCacheBounds.bytesForThisProcess());
    this.memtableBudgetBytes = b.memtableBudgetBytes;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * The pools for a database opening with {@code options}, which must leave what they replace at
   * its default; the database counts as open from here ({@code DbImpl.open} releases it if the
   * open fails), so that {@link #close()} cannot slip between the check and the open.
   */
  SharedState forDatabase(Options options) {
    if (options == null) {
      throw new IllegalArgumentException("options must not be null");
    }
    Options defaults = Options.defaults();
    if (options.blockCacheBytes() != defaults.blockCacheBytes()
        || options.blockCacheEvictionPolicy() != defaults.blockCacheEvictionPolicy()
        || options.backgroundThreads() != defaults.backgroundThreads()
        || !options.tableCacheBoundsDerived()) {
      throw new IllegalArgumentException("the options set blockCacheBytes, blockCacheEvictionPolicy, "
          + "backgroundThreads, tableCacheFiles or tableCacheBytes, which the shared resources provide: "
          + "leave them at their defaults");
    }
    pools.reserve();
    return pools;
  }

  /** The shared cache as a whole: every database's hits, misses and blocks. */
  public CacheStats cacheStats() {
    return pools.cacheStats();
  }

  /** Bytes the databases' memtables hold now (0 without a budget: counted only against one). */
  public long memtableBytes() {
    return pools.memtableBytes();
  }

  /** The memtable budget; 0 for none. */
  public long memtableBudgetBytes() {
    return memtableBudgetBytes;
  }

  /**
   * Tables the databases' table caches keep now, together, their indexes and filters decoded
   * (within {@link Builder#tableCacheBytes}, give or take a table per database inserting at
   * once). Tables a read or a version still holds after the cache let them go are open too, and
   * not counted here.
   */
  public int keptTables() {
    return pools.tableCacheFiles();
  }

  /**
   * Table files open now, together (within {@link Builder#tableCacheFiles}, give or take the
   * files reads are using): a kept table's file closes under the bound and opens again on its
   * next read.
   */
  public int openTableFiles() {
    return pools.openTableFiles();
  }

  /** Bytes of index and filter the databases' open tables pin now, together. */
  public long tableCacheBytes() {
    return pools.tableCacheBytes();
  }

  /** Databases open on these resources now. */
  public int openDatabases() {
    return pools.openDatabases();
  }

  /**
   * Stops the threads and frees the cache.
   *
   * @throws IllegalStateException if a database still uses them (close it first)
   */
  @Override
  public void close() {
    pools.close();
  }

  /** The shared resources' sizes; {@link #build()} validates. */
  public static final class Builder {
    private long blockCacheBytes = 128L << 20;
    private EvictionPolicy blockCacheEvictionPolicy = EvictionPolicy.TINY_LFU_CLOCK;
    private int backgroundThreads = 4;
    private long memtableBudgetBytes = 0;
    private int tableCacheFiles = 0;
    private long tableCacheBytes = 0;

    private Builder() {}

    /** The one block cache's capacity. Default 128 MiB. */
    public Builder blockCacheBytes(long v) {
      blockCacheBytes = v;
      return this;
    }

    /** As {@link Options#blockCacheEvictionPolicy()}. Default {@link EvictionPolicy#TINY_LFU_CLOCK}. */
    public Builder blockCacheEvictionPolicy(EvictionPolicy v) {
      blockCacheEvictionPolicy = v;
      return this;
    }

    /** Threads for every database's flushes and compactions, at least 2. Default 4 (1 for flushes). */
    public Builder backgroundThreads(int v) {
      backgroundThreads = v;
      return this;
    }

    /** The memtable budget across the databases; 0 (the default) for none. */
    public Builder memtableBudgetBytes(long v) {
      memtableBudgetBytes = v;
      return this;
    }

    /**
     * Most table files the databases hold open together; 0 (the default) derives it from the
     * process as {@link Options#tableCacheFiles()} does for one database.
     */
    public Builder tableCacheFiles(int v) {
      tableCacheFiles = v;
      return this;
    }

    /**
     * Most bytes of index and filter the databases' kept tables pin together (the bound on the
     * tables kept); 0 (the default) derives it from the heap as {@link Options#tableCacheBytes()}
     * does for one database.
     */
    public Builder tableCacheBytes(long v) {
      tableCacheBytes = v;
      return this;
    }

    public SharedResources build() {
      if (blockCacheBytes < 0 || blockCacheBytes > 1L << 44) {
        throw new IllegalArgumentException("blockCacheBytes = " + blockCacheBytes + " is out of range [0, 2^44]");
      }
      if (blockCacheEvictionPolicy == null) {
        throw new IllegalArgumentException("blockCacheEvictionPolicy must not be null");
      }
      if (backgroundThreads < 2 || backgroundThreads > 256) {
        throw new IllegalArgumentException("backgroundThreads = " + backgroundThreads + " is out of range [2, 256]");
      }
      if (tableCacheFiles != 0 && (tableCacheFiles < 16 || tableCacheFiles > 1_000_000)) {
        throw new IllegalArgumentException("tableCacheFiles = " + tableCacheFiles
            + " is out of range [16, 1000000] (0 to derive it)");
      }
      if (tableCacheBytes != 0 && (tableCacheBytes < 64 << 10 || tableCacheBytes > 1L << 40)) {
        throw new IllegalArgumentException("tableCacheBytes = " + tableCacheBytes
            + " is out of range [64 KiB, 2^40] (0 to derive it)");
      }
      if (memtableBudgetBytes != 0 && memtableBudgetBytes < 1L << 20) {
        throw new IllegalArgumentException("memtableBudgetBytes = " + memtableBudgetBytes
            + " is below 1 MiB (0 for no budget)");
      }
      return new SharedResources(this);
    }
  }
}

package dev.cairn.cache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@link BlockCache} weighed in bytes, holding blocks in off-heap memory from a
 * {@link BlockMemory}, evicting by TinyLFU's admission over a CLOCK (the default), by W-TinyLFU on a
 * Caffeine cache, or by LRU.
 *
 * <h2>Ownership</h2>
 *
 * Each cached block is a {@link SharedBlock}: the cache owns one reference while the block is in
 * the cache, and every {@link CachedBlock} returned by {@link #lookup} or {@link #insert} owns one
 * more. The removal listener drops the cache's reference, so eviction never frees memory a reader
 * still holds; the last {@code close()} frees it. {@link CacheStats#pinnedBytes()} counts all
 * allocated block memory, cached or evicted-but-held, and is zero after every reader has closed
 * and the cache is closed.
 *
 * <h2>Accounting</h2>
 *
 * The {@link BlockTable} under the cache reports every removal. The cache's byte count can
 * exceed the capacity briefly under every policy: an insert counts its block as the table takes
 * it, and an eviction is counted off when its notice runs, after the table's lock is released;
 * Caffeine's may also defer its maintenance to whichever thread next holds its eviction lock.
 * {@link #stats()} runs pending maintenance first and is exact when no other thread is using the
 * cache.
 *
 * <p>A block read by {@link #insertRead} keeps its file trailer after its contents, in the same
 * allocation: the cache weighs and counts ({@code usedBytes}) the contents only, as it does a
 * copied block, while {@link CacheStats#pinnedBytes()} counts what was allocated, trailers
 * included (5 bytes a block).
 *
 * <h2>Eviction policy</h2>
 *
 * {@link EvictionPolicy#TINY_LFU_CLOCK} (the default: a hit sets a bit, an insert evicts for itself;
 * see {@link ClockBlockTable}), {@link EvictionPolicy#TINY_LFU} (Caffeine's W-TinyLFU; one hit in
 * eight recorded, see {@link CaffeineBlockTable}) or {@link EvictionPolicy#LRU}
 * ({@link LruBlockTable}). The policy decides what is evicted for room; everything else here is
 * the same for all three.
 *
 * <h2>Per-file index</h2>
 *
 * Each file's cached blocks are listed in a {@link FileBlocks}, maintained on insert and removal.
 * {@link #evictFile} therefore costs O(blocks of that file), not O(blocks in the cache): a file is
 * deleted after every compaction, and scanning a multi-gigabyte cache (millions of keys) each time
 * would cost more than the compaction's reads. The list is threaded through the blocks (two links
 * and an offset each, no allocation), because every miss joins one block to it and removes
 * another; the same list gives {@link #cachedBlockCount} in O(1). Questions about one offset
 * ({@link #isCached}, {@link #isWarm}) ask the map the eviction policy keeps.
 *
 * <h2>Warmth</h2>
 *
 * TinyLFU admits and keeps blocks by frequency, so "cached" does not mean "read lately": a
 * block read often a while ago stays while newer blocks are turned away. {@link #isWarm} answers
 * what an LRU cache of the same capacity would hold: the cache keeps an insert clock (bytes
 * inserted so far) and each block the clock at its last read; a block is warm while less than
 * the capacity has come in since. Reads record the clock only when it moved on by more than a
 * sixteenth of the capacity, so a hot block is written rarely. Under LRU a cached block has seen
 * less than a capacity of inserts since its last read (each insert moves it towards the end), so
 * there the two answers nearly coincide.
 */
public final class OffHeapBlockCache implements BlockCache {
  // Immutable after construction.
  private final long capacityBytes;
  /** The table's {@link BlockTable#largestBlock}: a larger block is read but never cached. */
  private final long largestCachedBlock;
  private final BlockMemory memory;
  private final BlockTable table;

  // Thread-safe: per-file index and counters. An entry lives until its file is evicted.
  private final ConcurrentHashMap<Long, FileBlocks> files = new ConcurrentHashMap<>();

  // Thread-safe counters; see CacheStats for their meaning.
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder inserts = new LongAdder();
  private final LongAdder evictions = new LongAdder();
  private final LongAdder evictedWarm = new LongAdder();
  private final LongAdder usedBytes = new LongAdder();
  private final LongAdder blockCount = new LongAdder();
  /** The trace being recorded, or null: read once per call that records. */
  private volatile BlockCacheTrace trace;
  /** Bytes inserted so far: the clock {@link #isWarm} measures a block's age with. */
  private final AtomicLong insertClock = new AtomicLong();
  /** How far the clock moves before a read of a block records it again. */
  private final long readMarkSlack;

  private volatile boolean closed;

  /** A cache of {@code capacityBytes} in netty pooled direct memory. */
  public OffHeapBlockCache(long capacityBytes) {
    this(capacityBytes, new NettyBlockMemory());
  }

  /**
   * A cache of {@code capacityBytes} using {@code memory}. A capacity of zero caches nothing:
   * {@link #insert} then returns a block owned by the caller alone.
   */
  public OffHeapBlockCache(long capacityBytes, BlockMemory memory) {
    this(capacityBytes, memory, EvictionPolicy.TINY_LFU_CLOCK);
  }

  /** A cache of {@code capacityBytes} of {@code policy} in netty pooled direct memory. */
  public OffHeapBlockCache(long capacityBytes, EvictionPolicy policy) {
    this(capacityBytes, new NettyBlockMemory(), policy);
  }

  /**
   * A cache of {@code capacityBytes} using {@code memory}, evicting by {@code policy}. A capacity
   * of zero caches nothing: {@link #insert} then returns a block owned by the caller alone.
   */
  public OffHeapBlockCache(long capacityBytes, BlockMemory memory, EvictionPolicy policy) {
    if (capacityBytes < 0) {
      throw new IllegalArgumentException("negative cache capacity " + capacityBytes);
    }
    this.capacityBytes = capacityBytes;
    this.readMarkSlack = capacityBytes / 16;
    this.memory = memory;
    this.table = BlockTable.create(policy, capacityBytes, this::onRemoval);
    this.largestCachedBlock = table.largestBlock();
  }


  @Override
  public CachedBlock lookup(long fileNumber, long offset) {
    if (closed) {
      misses.increment();
      return null;
    }
    FileBlocks file = fileBlocks(fileNumber);
    BlockKey key = new BlockKey(fileNumber, offset);
    SharedBlock block = table.get(key);
    // tryRetain fails only if an eviction freed the block after getIfPresent found it: a miss.
    if (block != null && block.tryRetain()) {
      block.markRead(insertClock.get(), readMarkSlack);
      hits.increment();
      file.hits.increment();
      record(BlockCacheTrace.Kind.HIT, fileNumber, offset, block.size());
      return new BlockLease(block);
    }
    misses.increment();
    file.misses.increment();
    record(BlockCacheTrace.Kind.MISS, fileNumber, offset, 0);
    return null;
  }

  @Override
  public CachedBlock lookupQuietly(long fileNumber, long offset) {
    if (closed) {
      return null;
    }
    SharedBlock block = table.peek(new BlockKey(fileNumber, offset));
    return block != null && block.tryRetain() ? new BlockLease(block) : null;
  }

  /**
   * {@inheritDoc}
   *
   * <p>A block larger than the policy could keep is not cached (and not counted as an insert):
   * like a capacity of zero, the caller gets a block of its own. That is the whole capacity under
   * {@link EvictionPolicy#TINY_LFU}; under the sharded policies, the smallest shard's share
   * ({@link ShardSizes}), since a block stays only in its own shard.
   */
  @Override
  public CachedBlock insert(long fileNumber, long offset, ByteBuffer contents) {
    int size = contents.remaining();
    record(BlockCacheTrace.Kind.READ_CACHED, fileNumber, offset, size);
    if (closed || size > largestCachedBlock) {
      // Could never be cached (or the cache is gone): give the caller a block of its own.
      return new BlockLease(copyToNewBlock(contents, 1));
    }
    return cacheOrShare(new BlockKey(fileNumber, offset), () -> copyToNewBlock(contents, 2), false);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Through the table's {@link BlockTable#computeIfAbsentWritten}; a block too large to cache
   * is not copied at all.
   */
  @Override
  public void insertWritten(long fileNumber, long offset, ByteBuffer contents) {
    record(BlockCacheTrace.Kind.WRITTEN_CACHED, fileNumber, offset, contents.remaining());
    if (closed || contents.remaining() > largestCachedBlock) {
      return;
    }
    cacheOrShare(new BlockKey(fileNumber, offset), () -> copyToNewBlock(contents, 2), true).close();
  }

  /**
   * {@inheritDoc}
   *
   * <p>The read lands in block memory allocated here, outside the table's lock (so no lock is held
   * across I/O); the block is then cached as {@link #insert} caches a copy.
   */
  @Override
  public CachedBlock insertRead(long fileNumber, long offset, int storedBytes, BlockSource source)
      throws IOException {
    if (closed || storedBytes > largestCachedBlock) {
      record(BlockCacheTrace.Kind.READ_CACHED, fileNumber, offset, storedBytes);
      return BlockCache.super.insertRead(fileNumber, offset, storedBytes, source);
    }
    MemoryRegion region = memory.allocate(storedBytes);
    SharedBlock read;
    try {
      int contents = source.read(region.buffer().duplicate());
      if (contents < 0 || contents > storedBytes) {
        throw new IllegalStateException("a block source named " + contents
            + " bytes of contents in a read of " + storedBytes);
      }
      // Born with the caller's reference as well as the cache's, as a copied block is.
      read = new SharedBlock(region, contents, 2);
    } catch (IOException | RuntimeException | Error e) {
      region.free();
      throw e;
    }
    record(BlockCacheTrace.Kind.READ_CACHED, fileNumber, offset, read.size());
    boolean[] used = new boolean[1];
    CachedBlock out = cacheOrShare(new BlockKey(fileNumber, offset), () -> {
      used[0] = true;
      return read;
    }, false);
    if (!used[0]) {
      // Another reader cached this block meanwhile: drop our copy, both its references.
      read.release();
      read.release();
    }
    return out;
  }

  /**
   * Caches the block {@code create} makes unless {@code key} is cached, and returns whichever
   * block is cached, retained for the caller. {@code create} runs under the table's lock for the
   * key, at most once, and only when the key is absent, so two threads never both cache a block.
   * A {@code written} block goes through {@link BlockTable#computeIfAbsentWritten}.
   */
  private CachedBlock cacheOrShare(BlockKey key, Supplier<SharedBlock> create, boolean written) {
    while (true) {
      SharedBlock[] created = new SharedBlock[1];
      Function<BlockKey, SharedBlock> cacheNew = k -> created[0] = cacheNewBlock(k, create.get());
      SharedBlock block = written ? table.computeIfAbsentWritten(key, cacheNew) : table.computeIfAbsent(key, cacheNew);
      if (created[0] != null) {
        // Born with the caller's reference as well as the cache's, so even if maintenance
        // evicted it at once (TinyLFU may reject a newcomer) the caller still holds it.
        if (closed) {
          // close() may have cleared the cache before our entry landed; drop it ourselves so it
          // is not left pinned in a closed cache. (Volatile write of closed before clearing,
          // map write before this read: one side always sees the other.)
          table.remove(key);
        }
        return new BlockLease(block);
      }
      if (block.tryRetain()) {
        return new BlockLease(block);
      }
      // The existing block was evicted and freed since computeIfAbsent returned it. Removal
      // from the map precedes the release that freed it, so the next round caches a new block.
    }
  }

  /** Accounts for {@code block}, about to be cached: runs under the table's lock for {@code key}. */
  private SharedBlock cacheNewBlock(BlockKey key, SharedBlock block) {
    // An insert follows a read that missed, and a written block is cached to be read: for
    // isWarm, either is read now.
    block.markRead(insertClock.addAndGet(block.size()), 0);
    fileBlocks(key.fileNumber()).added(key.offset(), block);
    inserts.increment();
    usedBytes.add(block.size());
    blockCount.increment();
    return block;
  }

  private SharedBlock copyToNewBlock(ByteBuffer contents, int initialRefs) {
    int size = contents.remaining();
    MemoryRegion region = memory.allocate(size);
    try {
      region.buffer().put(0, contents, contents.position(), size);
    } catch (RuntimeException | Error e) {
      region.free();
      throw e;
    }
    return new SharedBlock(region, initialRefs);
  }

  /** The table's removal listener: the block has left the map; drop the cache's reference. */
  private void onRemoval(BlockKey key, SharedBlock block, boolean forRoom) {
    usedBytes.add(-block.size());
    blockCount.decrement();
    // The block's own link names its file too, but is guarded by that file's monitor; read
    // outside it, a stale null would leave the block listed. The map lookup is race-free.
    FileBlocks file = files.get(key.fileNumber());
    if (file != null) {
      file.removed(block);
    }
    if (!closed) {
      // Capacity pressure or evictFile; clearing at close is not an eviction.
      evictions.increment();
      if (forRoom && insertClock.get() - block.lastReadClock() < capacityBytes) {
        evictedWarm.increment();
      }
    }
    block.release();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Requires: no thread inserts blocks of {@code fileNumber} concurrently (the file is being
   * deleted, so nothing reads it). The file's lookup counters are dropped too.
   */
  @Override
  public void evictFile(long fileNumber) {
    record(BlockCacheTrace.Kind.FILE_DROPPED, fileNumber, 0, 0);
    FileBlocks file = files.get(fileNumber);
    if (file == null) {
      return;
    }
    for (long offset : file.cachedOffsets()) {
      table.remove(new BlockKey(fileNumber, offset));
    }
    files.remove(fileNumber, file);
  }

  @Override
  public long cachedBlockCount(long fileNumber) {
    FileBlocks file = files.get(fileNumber);
    return file == null ? 0 : file.cachedBlockCount();
  }

  @Override
  public boolean isCached(long fileNumber, long offset) {
    return !closed && table.peek(new BlockKey(fileNumber, offset)) != null;
  }

  @Override
  public boolean isWarm(long fileNumber, long offset) {
    SharedBlock block = closed ? null : table.peek(new BlockKey(fileNumber, offset));
    return block != null && insertClock.get() - block.lastReadClock() < capacityBytes;
  }

  @Override
  public long warmBlockCount(long fileNumber) {
    return countWarm(fileNumber, Long.MAX_VALUE);
  }

  @Override
  public boolean hasWarmBlock(long fileNumber) {
    return countWarm(fileNumber, 1) > 0; // stops at the first: the buffer asks this under the engine mutex
  }

  /** The warm blocks of {@code fileNumber}, counted up to {@code atMost}. */
  private long countWarm(long fileNumber, long atMost) {
    FileBlocks file = files.get(fileNumber);
    return file == null ? 0 : file.countWarm(insertClock.get(), capacityBytes, atMost);
  }

  /** Lookup counters and cached block count of one file; zeros for a file never looked up. */
  public FileCacheStats fileStats(long fileNumber) {
    FileBlocks file = files.get(fileNumber);
    return file == null ? new FileCacheStats(fileNumber, 0, 0, 0) : file.snapshot(fileNumber);
  }

  @Override
  public void startTrace(BlockCacheTrace next) {
    synchronized (this) {
      if (trace != null) {
        throw new IllegalStateException("the block cache is recording a trace already, to " + trace.path());
      }
      trace = next;
    }
  }

  @Override
  public BlockCacheTrace stopTrace() {
    synchronized (this) {
      BlockCacheTrace stopped = trace;
      trace = null;
      return stopped;
    }
  }

  private void record(BlockCacheTrace.Kind kind, long fileNumber, long offset, int bytes) {
    BlockCacheTrace t = trace;
    if (t != null) {
      t.record(kind, fileNumber, offset, bytes);
    }
  }

  @Override
  public CacheStats stats() {
    table.runPendingMaintenance();
    return new CacheStats(
        hits.sum(),
        misses.sum(),
        inserts.sum(),
        evictions.sum(),
        usedBytes.sum(),
        capacityBytes,
        blockCount.sum(),
        memory.allocatedBytes(),
        evictedWarm.sum(),
        table.windowCapacity());
  }

  /** The largest block this cache caches (for tests): see {@link #insert}. */
  long largestCachedBlock() {
    return largestCachedBlock;
  }

  @Override
  public long capacityBytes() {
    return capacityBytes;
  }

  /** Idempotent. Later lookups miss and later inserts return caller-owned blocks. */
  @Override
  public void close() {
    closed = true;
    table.clear();
    files.clear();
  }

  private FileBlocks fileBlocks(long fileNumber) {
    FileBlocks file = files.get(fileNumber);
    return file != null ? file : files.computeIfAbsent(fileNumber, n -> new FileBlocks());
  }
}

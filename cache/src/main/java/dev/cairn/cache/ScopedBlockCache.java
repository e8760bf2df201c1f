package dev.cairn.cache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * One database's share of a block cache several databases use: its file numbers are moved into a
 * range of their own ({@code scope << 40 | number}), so that two databases' table 7 are two keys;
 * its own lookups are counted apart (hits, misses, inserts); and {@link #close()} drops the blocks
 * of every file it cached, leaving the shared cache open for the others. The cache's size,
 * evictions and memory figures in {@link #stats()} are the whole cache's.
 */
public final class ScopedBlockCache implements BlockCache {
  /** File numbers of one scope stay below this. */
  public static final long MAX_FILE_NUMBER = (1L << 40) - 1;

  private final BlockCache shared;
  private final long base;
  private final Set<Long> files = ConcurrentHashMap.newKeySet();
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder inserts = new LongAdder();
  /**
   * Set by {@link #close()}: lookups miss, and a block that work outliving the close inserts
   * (a trim or compaction past its stop's wait) is dropped again at once.
   */
  private volatile boolean closed;

  /** The share {@code scope} (0 to 2^23 - 1) of {@code shared}. */
  public ScopedBlockCache(BlockCache shared, long scope) {
    if (scope < 0 || scope >= 1L << 23) {
      throw new IllegalArgumentException("scope " + scope + " is out of range [0, 2^23)");
    }
    this.shared = shared;
    this.base = scope << 40;
  }

  private long key(long fileNumber) {
    if (fileNumber < 0 || fileNumber > MAX_FILE_NUMBER) {
      throw new IllegalArgumentException("file number " + fileNumber + " does not fit a shared cache's scope");
    }
    return base | fileNumber;
  }

  private long cached(long fileNumber) {
    long k = key(fileNumber);
    files.add(fileNumber);
    inserts.increment();
    return k;
  }

  @Override
  public CachedBlock lookup(long fileNumber, long offset) {
    if (closed) {
      return null;
    }
    CachedBlock b = shared.lookup(key(fileNumber), offset);
    if (b == null) {
      misses.increment();
      files.add(fileNumber); // the shared cache keeps a miss's per-file record too: close drops it
    } else {
      hits.increment();
    }
    return b;
  }

  @Override
  public CachedBlock lookupQuietly(long fileNumber, long offset) {
    return closed ? null : shared.lookupQuietly(key(fileNumber), offset);
  }

  @Override
  public CachedBlock insert(long fileNumber, long offset, ByteBuffer contents) {
    CachedBlock b = shared.insert(cached(fileNumber), offset, contents);
    dropIfClosed(fileNumber);
    return b;
  }

  @Override
  public void insertWritten(long fileNumber, long offset, ByteBuffer contents) {
    shared.insertWritten(cached(fileNumber), offset, contents);
    dropIfClosed(fileNumber);
  }

  @Override
  public CachedBlock insertRead(long fileNumber, long offset, int storedBytes, BlockSource source) throws IOException {
    CachedBlock b = shared.insertRead(cached(fileNumber), offset, storedBytes, source);
    dropIfClosed(fileNumber);
    return b;
  }

  /** After {@link #close()}, the file's blocks leave the shared cache again (the caller's lease stays valid). */
  private void dropIfClosed(long fileNumber) {
    if (closed) {
      evictFile(fileNumber);
    }
  }

  @Override
  public void evictFile(long fileNumber) {
    shared.evictFile(key(fileNumber));
    files.remove(fileNumber);
  }

  @Override
  public long cachedBlockCount(long fileNumber) {
    return shared.cachedBlockCount(key(fileNumber));
  }

  @Override
  public boolean isCached(long fileNumber, long offset) {
    return shared.isCached(key(fileNumber), offset);
  }

  @Override
  public boolean isWarm(long fileNumber, long offset) {
    return shared.isWarm(key(fileNumber), offset);
  }

  @Override
  public long warmBlockCount(long fileNumber) {
    return shared.warmBlockCount(key(fileNumber));
  }

  @Override
  public boolean hasWarmBlock(long fileNumber) {
    return shared.hasWarmBlock(key(fileNumber));
  }

  /** This share's hits, misses and inserts; the rest is the whole cache's. */
  @Override
  public CacheStats stats() {
    CacheStats all = shared.stats();
    return new CacheStats(hits.sum(), misses.sum(), inserts.sum(), all.evictions(), all.usedBytes(),
        all.capacityBytes(), all.blockCount(), all.pinnedBytes(), all.evictedWarm(), all.windowBytes());
  }

  /** A shared cache's trace would hold every database's lookups: not recorded per share. */
  @Override
  public void startTrace(BlockCacheTrace trace) {
    throw new UnsupportedOperationException("a block cache shared by several databases records no trace of one of them");
  }

  @Override
  public long capacityBytes() {
    return shared.capacityBytes();
  }

  /** Drops this share's blocks; the shared cache stays open. */
  @Override
  public void close() {
    closed = true;
    for (Long f : files) {
      evictFile(f);
    }
  }
}

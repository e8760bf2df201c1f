package dev.cairn.table;

import dev.cairn.cache.BlockCache;
import dev.cairn.cache.CacheStats;
import dev.cairn.cache.CachedBlock;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test-only {@link BlockCache}: unbounded-by-LRU, on-heap, with reference counting checked so that
 * tests can assert no block stays pinned ({@link #pinned()}). Capacity counts blocks' bytes; when
 * full, inserts simply do not cache (enough for table tests).
 */
public final class HeapBlockCache implements BlockCache {
  private record Key(long file, long offset) {}

  private final long capacity;
  private final Map<Key, byte[]> blocks = new HashMap<>();
  private final AtomicInteger pinned = new AtomicInteger();
  private long used;
  private long hits;
  private long misses;
  private long inserts;
  private long evictions;

  public HeapBlockCache(long capacity) {
    this.capacity = capacity;
  }

  private final class Handle implements CachedBlock {
    private final byte[] bytes;
    private boolean closed;

    Handle(byte[] bytes) {
      this.bytes = bytes;
      pinned.incrementAndGet();
    }

    @Override
    public ByteBuffer contents() {
      assert !closed : "contents() after close";
      return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    }

    @Override
    public int size() {
      return bytes.length;
    }

    @Override
    public void close() {
      assert !closed : "cached block closed twice";
      closed = true;
      pinned.decrementAndGet();
    }
  }

  @Override
  public synchronized CachedBlock lookup(long fileNumber, long offset) {
    byte[] b = blocks.get(new Key(fileNumber, offset));
    if (b == null) {
      misses++;
      return null;
    }
    hits++;
    return new Handle(b);
  }

  @Override
  public synchronized CachedBlock lookupQuietly(long fileNumber, long offset) {
    byte[] b = blocks.get(new Key(fileNumber, offset));
    return b == null ? null : new Handle(b);
  }

  @Override
  public synchronized CachedBlock insert(long fileNumber, long offset, ByteBuffer contents) {
    Key key = new Key(fileNumber, offset);
    byte[] existing = blocks.get(key);
    if (existing != null) {
      return new Handle(existing);
    }
    byte[] copy = new byte[contents.remaining()];
    contents.duplicate().get(copy);
    if (used + copy.length <= capacity) {
      blocks.put(key, copy);
      used += copy.length;
      inserts++;
    }
    return new Handle(copy);
  }

  @Override
  public synchronized void evictFile(long fileNumber) {
    blocks.entrySet().removeIf(e -> {
      if (e.getKey().file() == fileNumber) {
        used -= e.getValue().length;
        evictions++;
        return true;
      }
      return false;
    });
  }

  @Override
  public synchronized long cachedBlockCount(long fileNumber) {
    return blocks.keySet().stream().filter(k -> k.file() == fileNumber).count();
  }

  @Override
  public synchronized boolean isCached(long fileNumber, long offset) {
    return blocks.keySet().stream().anyMatch(k -> k.file() == fileNumber && k.offset() == offset);
  }

  @Override
  public synchronized CacheStats stats() {
    return new CacheStats(hits, misses, inserts, evictions, used, capacity, blocks.size(), used, 0, 0);
  }

  @Override
  public long capacityBytes() {
    return capacity;
  }

  /** Handles handed out and not yet closed. */
  public int pinned() {
    return pinned.get();
  }

  @Override
  public synchronized void close() {
    blocks.clear();
    used = 0;
  }
}

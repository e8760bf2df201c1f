package dev.cairn.cache;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A cache of table blocks held off-heap, keyed by (file number, block offset). Because Cairn's
 * tables never move a byte once written (block compaction appends; see docs/format.md), a
 * cached block stays valid until its file is deleted.
 *
 * <p>Entries are reference-counted: a reader holds a {@link CachedBlock} and closes it when done;
 * eviction removes the entry from the cache but frees its memory only after the last holder has
 * closed it. Thread-safe.
 */
public interface BlockCache extends AutoCloseable {
  /**
   * Returns the block, retained for the caller, or null. Counts a hit or a miss, in total and for
   * {@code fileNumber}.
   */
  CachedBlock lookup(long fileNumber, long offset);

  /**
   * Like {@link #lookup}, for background reads (compaction): counts neither a hit nor a miss and
   * leaves the block's recency alone, so the hit ratio is the user reads' (as LSbM measures it)
   * and a merge reading a block does not keep it cached for the data it is about to replace.
   */
  CachedBlock lookupQuietly(long fileNumber, long offset);

  /**
   * Copies {@code contents} (its remaining bytes; position unchanged) into block memory, caches
   * it, and returns it retained for the caller. If the key is already cached, returns the cached
   * block instead. With a capacity of zero nothing is cached and the returned block is owned by
   * the caller alone.
   */
  CachedBlock insert(long fileNumber, long offset, ByteBuffer contents);

  /**
   * Caches a copy of {@code contents} (its remaining bytes; position unchanged), a block just
   * written and not read yet, expected to be read soon (a flush's output under flush caching, a
   * warm block moved to a new address). Unlike {@link #insert} it is not a read: a policy that
   * admits by how often blocks were asked for does not count it as asked for, and a block cached
   * already under the key is left as it is. By default, as {@link #insert}.
   */
  default void insertWritten(long fileNumber, long offset, ByteBuffer contents) {
    insert(fileNumber, offset, contents).close();
  }

  /**
   * {@link #insert} for a block not read yet: {@code source} reads its {@code storedBytes} bytes
   * into memory of the cache's own, so that a miss costs no heap copy (a heap buffer handed to
   * {@code pread} costs the JDK a copy from a temporary direct buffer, then another into the
   * cache). Only the leading bytes {@code source} names as contents are the cached block; its
   * {@link CachedBlock#size()} is theirs. If the key was cached meanwhile, returns the cached block
   * and the read is dropped. If {@code source} throws, nothing is cached and its memory is freed.
   *
   * <p>This default reads into a heap buffer and inserts that.
   */
  default CachedBlock insertRead(long fileNumber, long offset, int storedBytes, BlockSource source)
      throws IOException {
    ByteBuffer read = ByteBuffer.allocate(storedBytes);
    int contents = source.read(read);
    return insert(fileNumber, offset, read.slice(0, contents));
  }

  /** Drops every cached block of a deleted file. */
  void evictFile(long fileNumber);

  /** Number of blocks of {@code fileNumber} now in the cache (LSbM's trim reads this). */
  long cachedBlockCount(long fileNumber);

  /**
   * Whether the block at {@code offset} of {@code fileNumber} is in the cache now, without
   * counting a lookup or touching its recency (the trim judges block runs with it).
   */
  boolean isCached(long fileNumber, long offset);

  /**
   * Whether the block at {@code offset} of {@code fileNumber} is cached and was read recently
   * enough that an LRU cache of this capacity would still hold it: since its last read, fewer
   * than {@link #capacityBytes()} bytes of new blocks came in. Counts no lookup and touches no
   * recency. LSbM's trim calls a block hot when it is cached, which assumes LRU; a cache that
   * admits by frequency keeps blocks read often long ago, and the trim asks this instead. A cache
   * that never evicts for room may answer {@link #isCached}.
   */
  default boolean isWarm(long fileNumber, long offset) {
    return isCached(fileNumber, offset);
  }

  /** Number of blocks of {@code fileNumber} for which {@link #isWarm} holds now. */
  default long warmBlockCount(long fileNumber) {
    return cachedBlockCount(fileNumber);
  }

  /** Whether {@link #isWarm} holds now for any block of {@code fileNumber}. */
  default boolean hasWarmBlock(long fileNumber) {
    return warmBlockCount(fileNumber) > 0;
  }

  CacheStats stats();

  /**
   * Starts recording this cache's lookups, inserts and dropped files to {@code trace} ({@link
   * BlockCacheTrace}); the caller closes it after {@link #stopTrace}. Throws {@link
   * IllegalStateException} if a trace is being recorded already. By default, unsupported.
   */
  default void startTrace(BlockCacheTrace trace) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " records no trace");
  }

  /** Stops recording and returns the trace that was being recorded, or null if none was. */
  default BlockCacheTrace stopTrace() {
    return null;
  }

  long capacityBytes();

  /** Drops every entry; memory still held by readers is freed when they close. */
  @Override
  void close();
}

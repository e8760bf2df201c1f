package dev.cairn.table;

import dev.cairn.CairnIOException;
import dev.cairn.CorruptionException;
import dev.cairn.cache.BlockCache;
import dev.cairn.cache.CachedBlock;
import dev.cairn.fs.IoPurpose;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.iter.InternalIterator;
import dev.cairn.key.InternalKey;
import dev.cairn.key.LookupResult;
import dev.cairn.key.RangeTombstones;
import dev.cairn.key.ValueType;
import dev.cairn.model.KeyFilter;
import dev.cairn.table.block.Block;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockIterator;
import dev.cairn.table.filter.BloomFilter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.LongAdder;

/**
 * Reads the table that the footer at a given offset describes (docs/format.md). The footer,
 * index, filter and properties are read, verified and pinned on-heap at {@link #open}; data
 * blocks come through the block cache, keyed (file number, block offset), which stays valid
 * across appends because no byte of a table ever moves. The cache holds blocks as built: a block
 * stored compressed (a version 2 table, docs/format.md section 3.2) is decompressed once, on the
 * miss that reads it, straight into the cache's memory.
 *
 * <p>Thread-safe: many threads may {@link #get} and iterate at once. I/O errors after open are
 * raised as {@link CairnIOException}; damaged bytes as {@link CorruptionException} naming the
 * file and offset.
 */
public final class TableReader implements AutoCloseable {
  private final ReadableFile file;
  private final String fileName;
  private final long fileNumber;
  private final long footerOffset;
  private final Footer footer;
  private final TableIndex index;
  private final BloomFilter filter; // null when the table has none
  private final TableProperties properties;
  private final RangeTombstones rangeTombstones; // the range-deletion block's, read at open; EMPTY: none
  private final BlockCache cache; // null when reads are uncached
  private final ReadaheadBuffers readaheadBuffers; // null: iterators do not read ahead
  private final boolean compressed; // whether data blocks may be stored compressed (a version 2 footer)
  private final StoredBlockReader blocks; // reads a missed data block from the file or the read-ahead

  private final LongAdder filterProbes = new LongAdder();
  private final LongAdder filterUseful = new LongAdder();
  private final LongAdder filterTruePositives = new LongAdder();

  private TableReader(ReadableFile file, String fileName, long fileNumber, long footerOffset,
      Footer footer, TableIndex index, BloomFilter filter, TableProperties properties, RangeTombstones rangeTombstones,
      BlockCache cache, ReadaheadBuffers readaheadBuffers) {
    this.rangeTombstones = rangeTombstones;
    this.file = file;
    this.fileName = fileName;
    this.fileNumber = fileNumber;
    this.footerOffset = footerOffset;
    this.footer = footer;
    this.index = index;
    this.filter = filter;
    this.properties = properties;
    this.cache = cache;
    this.readaheadBuffers = readaheadBuffers;
    this.compressed = footer.mayHoldCompressedBlocks();
    this.blocks = new StoredBlockReader(file, fileName, fileNumber, cache, compressed);
  }

  /**
   * Opens the table whose footer is at {@code footerOffset}; bytes after the footer are ignored.
   * Takes ownership of {@code file}: it is closed by {@link #close()}, or here if opening fails.
   *
   * @param cache the block cache, or null for uncached reads
   * @throws CorruptionException if the footer, index, filter or properties are damaged
   */
  public static TableReader open(ReadableFile file, String fileName, long fileNumber,
      long footerOffset, BlockCache cache) throws IOException {
    return open(file, fileName, fileNumber, footerOffset, cache, null);
  }

  /**
   * {@link #open(ReadableFile, String, long, long, BlockCache)} whose iterators read ahead with
   * buffers from {@code readaheadBuffers}: every iterator when the file bypasses the page cache,
   * compactions' on any file ({@link Readahead}); null for no read-ahead.
   */
  public static TableReader open(ReadableFile file, String fileName, long fileNumber,
      long footerOffset, BlockCache cache, ReadaheadBuffers readaheadBuffers) throws IOException {
    try {
      if (footerOffset < 0) {
        throw new CorruptionException(fileName, footerOffset, "negative footer offset");
      }
      Footer footer = Footer.decode(readRaw(file, fileName, footerOffset, Footer.SIZE),
          fileName, footerOffset);
      ByteBuffer indexContents = StoredBlockReader.readContents(file, fileName, footer.indexHandle(), IoTag.USER_READ,
          footer.mayHoldCompressedBlocks());
      TableIndex index = TableIndex.decode(Block.of(indexContents, fileName, footer.indexHandle()), footerOffset);
      BloomFilter filter = null;
      if (footer.hasFilter()) {
        ByteBuffer f = StoredBlockReader.readVerified(file, fileName, footer.filterHandle(), IoTag.USER_READ);
        byte[] bytes = new byte[f.remaining()];
        f.get(bytes);
        filter = BloomFilter.decode(bytes, fileName, footer.filterHandle().offset());
      }
      ByteBuffer p = StoredBlockReader.readVerified(file, fileName, footer.propertiesHandle(), IoTag.USER_READ);
      TableProperties properties =
          TableProperties.decode(p, fileName, footer.propertiesHandle().offset());
      if (properties.dataBlocks() != index.size()) {
        throw new CorruptionException(fileName, footer.propertiesHandle().offset(),
            "properties count " + properties.dataBlocks() + " data blocks, index has " + index.size());
      }
      RangeTombstones ranges = RangeTombstones.EMPTY;
      if (properties.hasRangeDeletions()) {
        if (!footer.mayHoldRangeDeletions()) {
          throw new CorruptionException(fileName, footer.propertiesHandle().offset(),
              "a range-deletion block in a version " + footer.version() + " table");
        }
        ranges = RangeDeletionBlock.read(file, fileName, properties.rangeDeletions(), footerOffset,
            footer.propertiesHandle().offset());
      }
      return new TableReader(file, fileName, fileNumber, footerOffset, footer, index, filter,
          properties, ranges, cache, readaheadBuffers);
    } catch (IOException | RuntimeException e) {
      try {
        file.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  private static byte[] readRaw(ReadableFile file, String fileName, long offset, int length)
      throws IOException {
    byte[] raw = new byte[length];
    int n = file.read(offset, ByteBuffer.wrap(raw), IoTag.USER_READ);
    if (n != length) {
      throw new CorruptionException(fileName, offset,
          "truncated: wanted " + length + " bytes, file ends after " + Math.max(0, n));
    }
    return raw;
  }

  /** {@link StoredBlockReader#decodeStored} for a block of this table. */
  ByteBuffer decodeStored(ByteBuffer raw, long blockOffset) {
    return StoredBlockReader.decodeStored(raw, fileName, blockOffset, compressed);
  }

  /**
   * The table's filter as a test that outlives this reader (it holds the filter's bits only), or
   * null when the table has none: what a trimmed buffer file leaves behind as a filter marker.
   * It also holds the keys the table's range tombstones cover, which the table answers for too.
   */
  public KeyFilter keyFilter() {
    if (filter == null) {
      return null;
    }
    if (rangeTombstones.isEmpty()) {
      return filter::mayContain;
    }
    RangeTombstones ranges = rangeTombstones;
    BloomFilter bloom = filter;
    return key -> bloom.mayContain(key) || ranges.coverSequence(key, Long.MAX_VALUE) != RangeTombstones.NONE;
  }

  /**
   * Whether the table may hold {@code userKey}: false only when its filter rules the key out
   * (always true without a filter). Lets a read skip a level and its compaction buffer at once.
   */
  public boolean mayContain(byte[] userKey) {
    return filter == null || filter.mayContain(userKey);
  }

  /**
   * {@link #mayContain(byte[])} with the read's key, hashed once for all its tables: a point
   * read's probe, counted as {@link #get(LookupKey, boolean)} counts its own, so that a read that
   * goes on with {@link #getPastFilter} is counted once.
   */
  public boolean mayContain(LookupKey key) {
    if (filter == null) {
      return true;
    }
    filterProbes.increment();
    if (!filter.mayContainHash(key.bloomHash())) {
      filterUseful.increment();
      return false;
    }
    return true;
  }

  /**
   * Looks up the newest entry for {@code userKey} with sequence {@code <= snapshotSequence}.
   * Consults the filter first, then the index, then one data block (more only where the key's
   * merge operands run on past its end). Merge operands above the key's newest value or
   * tombstone are added to the lookup's operands ({@link LookupKey#operands()}).
   *
   * @param fillCache whether a block read from the file is inserted into the block cache
   */
  public LookupResult get(byte[] userKey, long snapshotSequence, boolean fillCache) {
    return get(new LookupKey(userKey, snapshotSequence), fillCache);
  }

  /** {@link #get(byte[], long, boolean)} with a key prepared once for every table of a read. */
  public LookupResult get(LookupKey lookup, boolean fillCache) {
    if (mayContain(lookup)) {
      return getPastFilter(lookup, fillCache);
    }
    return rangeTombstones.isEmpty() || !coveredByTombstone(lookup) ? LookupResult.NOT_PRESENT : LookupResult.DELETED;
  }

  /**
   * Whether this table can answer a read of {@code lookup}: its filter may hold the key, or one
   * of its range tombstones covers the key at the read's snapshot (the filter knows point keys
   * only). Counted as {@link #mayContain(LookupKey)} counts.
   */
  public boolean mayAnswer(LookupKey lookup) {
    return mayContain(lookup) || (!rangeTombstones.isEmpty() && coveredByTombstone(lookup));
  }

  private boolean coveredByTombstone(LookupKey lookup) {
    return rangeTombstones.coverSequence(lookup.userKey(), lookup.sequence()) != RangeTombstones.NONE;
  }

  /** This table's range tombstones ({@link RangeTombstones#EMPTY}: none). */
  public RangeTombstones rangeTombstones() {
    return rangeTombstones;
  }

  /**
   * {@link #get(LookupKey, boolean)} for a caller that has already asked {@link
   * #mayContain(LookupKey)} and been told yes: the index, then one data block, without probing
   * the filter again.
   */
  public LookupResult getPastFilter(LookupKey lookup, boolean fillCache) {
    byte[] target = lookup.seekKey();
    boolean keyFound = false;
    // A range tombstone here over the key deletes its entries here older than the tombstone.
    long cover = rangeTombstones.isEmpty() ? RangeTombstones.NONE
        : rangeTombstones.coverSequence(lookup.userKey(), lookup.sequence());
    LookupResult nothingNewer = cover == RangeTombstones.NONE ? LookupResult.NOT_PRESENT : LookupResult.DELETED;
    // Merge operands above the key's value may run on into the next blocks.
    for (int i = index.seek(target); i < index.size(); i++) {
      try (BlockRef ref = acquireDataBlock(index.handle(i), fillCache, IoTag.USER_READ, lookup, null)) {
        BlockIterator it = ref.block().internalKeyIterator();
        for (it.seek(target); it.isValid(); it.next()) {
          byte[] key = it.key();
          if (InternalKey.compareUserKeys(key, target) != 0) {
            return nothingNewer;
          }
          if (!keyFound && filter != null) {
            filterTruePositives.increment();
          }
          keyFound = true;
          if (InternalKey.sequence(key) < cover) {
            return LookupResult.DELETED;
          }
          ValueType type = InternalKey.type(key);
          if (type != ValueType.MERGE) {
            return type == ValueType.VALUE ? LookupResult.found(it.value()) : LookupResult.DELETED;
          }
          lookup.operands().add(it.value());
        }
      }
    }
    return nothingNewer;
  }

  /**
   * Pins data block {@code h}: from the cache when present; otherwise read with {@code tag},
   * verified, and cached if {@code fillCache} (else a private copy). Close the result. Only
   * user reads count as cache hits or misses: the hit ratio is theirs.
   */
  BlockRef acquireDataBlock(BlockHandle h, boolean fillCache, IoTag tag) {
    return acquireDataBlock(h, fillCache, tag, null, null);
  }

  /** {@link #acquireDataBlock(BlockHandle, boolean, IoTag)} for an iterator that may read ahead. */
  BlockRef acquireDataBlock(BlockHandle h, boolean fillCache, IoTag tag, Readahead readahead) {
    return acquireDataBlock(h, fillCache, tag, null, readahead);
  }

  /**
   * @param reader the point read to tell of a read from the device, or null
   * @param readahead the iterator's read-ahead a miss is served from, or null
   */
  private BlockRef acquireDataBlock(BlockHandle h, boolean fillCache, IoTag tag, LookupKey reader,
      Readahead readahead) {
    if (cache != null) {
      CachedBlock cached = tag.purpose() == IoPurpose.USER_READ
          ? cache.lookup(fileNumber, h.offset())
          : cache.lookupQuietly(fileNumber, h.offset());
      if (cached != null) {
        // A compressed block is cached as built, so its size is not the handle's.
        if (compressed || cached.size() == h.size()) {
          return pin(cached, h);
        }
        // Not this block: cannot happen while nothing caches an append's blocks before its footer
        // is installed (a discarded or torn append's offsets are written again). Re-read.
        cached.close();
      }
    }
    return readDataBlock(h, fillCache, tag, reader, readahead);
  }

  /**
   * {@link #acquireDataBlock} on a cache miss: reads the block. Its own method so that the hit
   * path stays small wherever the compiler inlines it, and a miss, which reads the file anyway,
   * pays a call more when the compiler leaves this out of line (docs/results/issue21/s12-jit/).
   */
  private BlockRef readDataBlock(BlockHandle h, boolean fillCache, IoTag tag, LookupKey reader,
      Readahead readahead) {
    long start = reader != null ? System.nanoTime() : 0;
    BlockRef read = blocks.read(h, fillCache, tag, readahead);
    if (reader != null) {
      reader.noteBlockRead(System.nanoTime() - start);
    }
    return read;
  }

  private BlockRef pin(CachedBlock cached, BlockHandle h) {
    return StoredBlockReader.pin(cached, fileName, h);
  }

  /**
   * An iterator over every entry, in order. It pins at most one data block at a time.
   *
   * @param fillCache false for compaction reads, so that a merge does not flush the cache
   * @param readTag accounting tag for blocks read from the file
   */
  public InternalIterator iterator(boolean fillCache, IoTag readTag) {
    return new TableIterator(this, fillCache, readTag, readahead(index, readTag.purpose() == IoPurpose.USER_READ));
  }

  TableIndex index() {
    return index;
  }

  /** Read-ahead over this table's blocks in {@code walked}'s order (this index or a newer footer's); null: none. */
  Readahead readahead(TableIndex walked, boolean userRead) {
    return Readahead.forFile(file, readaheadBuffers, walked, footerOffset, userRead);
  }

  /** The filter block's contents as the file stores them (from the decoded filter); null without a filter. */
  byte[] filterContents() {
    return filter == null ? null : filter.encode();
  }

  /** Number of data blocks the newest index references. */
  public int dataBlockCount() {
    return index.size();
  }

  /** The handle of data block {@code i} (key order), {@code 0 <= i < dataBlockCount()}. */
  public BlockHandle dataBlockHandle(int i) {
    return index.handle(i);
  }

  /** File offset of data block {@code i} in key order: its block-cache key. */
  public long dataBlockOffset(int i) {
    return index.handle(i).offset();
  }

  /** Bytes of data block {@code i} in key order, its trailer included. */
  public long dataBlockBytes(int i) {
    return index.handle(i).end() - index.handle(i).offset();
  }

  /**
   * The user key of data block {@code i}'s index separator: every key of blocks {@code 0..i} has
   * a user key at or below it, every key of the later blocks one at or above it (equal only when
   * a user key's versions straddle the boundary). The last block's may lie above the table's
   * largest key.
   */
  public byte[] dataBlockUpperUserKey(int i) {
    return InternalKey.userKey(index.separator(i));
  }

  public TableProperties properties() {
    return properties;
  }

  public Footer footer() {
    return footer;
  }

  public long footerOffset() {
    return footerOffset;
  }

  /** Heap pinned while kept (estimated, range tombstones uncounted): index, filter, 1 KiB of objects. */
  public long pinnedBytes() {
    return index.heapBytes() + (filter == null ? 0 : filter.sizeBytes() + 16) + 1024;
  }

  public long fileNumber() {
    return fileNumber;
  }

  public String fileName() {
    return fileName;
  }

  /** Whether the table has a Bloom filter. */
  public boolean hasFilter() {
    return filter != null;
  }

  public FilterCounters filterCounters() {
    long probes = filterProbes.sum();
    long useful = filterUseful.sum();
    return new FilterCounters(probes, useful, probes - useful, filterTruePositives.sum());
  }

  /** Bytes pinned on-heap for this open table (index, filter). */
  public long pinnedMetadataBytes() {
    return properties.indexBytes() + properties.filterBytes();
  }

  /**
   * Approximate bytes of table data before {@code internalKey}, in key order: the sizes of the
   * data blocks the index lists before the block that would hold it. Counts index order, not file
   * offsets, so it stays meaningful after appends scatter blocks across the file.
   */
  public long approximateOffsetOf(byte[] internalKey) {
    return index.dataBefore(index.seek(internalKey));
  }

  /**
   * Reads every data block from the file (bypassing the cache), checks CRCs, that every key is a
   * valid internal key in strictly increasing order within its block's index range, and that
   * the counts match the properties.
   */
  public void verifyChecksums() {
    new TableVerifier(this, file).verify();
  }

  @Override
  public void close() throws IOException {
    file.close();
  }

  @Override
  public String toString() {
    return fileName + "@" + footerOffset;
  }
}

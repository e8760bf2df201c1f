package dev.cairn.table;

import dev.cairn.fs.WritableFile;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.table.block.BlockBuilder;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockTrailer;
import dev.cairn.table.codec.BlockCompressor;
import dev.cairn.table.filter.BloomFilterBuilder;
import java.io.IOException;
import dev.cairn.key.RangeTombstone;
import dev.cairn.key.RangeTombstones;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes a table (docs/format.md) by appending to a {@link WritableFile}, starting at the file's
 * current size: data blocks as entries arrive, then on {@link #finish()} the filter, range-deletion,
 * properties and index blocks and the footer.
 *
 * <p>The index entry of a block is written when the next block's first key is known, so that the
 * separator can be shortened (section 4). The last block's separator is its exact last key.
 *
 * <p>Data and index blocks are stored as {@link TableOptions#compression()} says; the table is
 * format version 2 when that compresses, else version 1 (docs/format.md section 9).
 *
 * <p>Not thread-safe. The caller owns the file: it syncs and closes it after {@link #finish()},
 * or deletes it after {@link #abandon()}.
 */
public final class TableBuilder {
  private static final InternalKeyComparator CMP = InternalKeyComparator.INSTANCE;

  // Immutable after construction.
  private final WritableFile file;
  private final TableOptions options;
  private final long startOffset;
  private final long previousFooterOffset;
  private final long extent;

  private final BlockBuilder dataBlock;
  private final BlockBuilder indexBlock;
  private final BloomFilterBuilder filter;
  private final BlockCompressor compressor;
  private final TableStatsAccumulator stats = new TableStatsAccumulator();
  private byte[] lastKey;
  private long rawDataBytes;
  private long storedDataBytes;
  /** Handle of the last written data block whose index entry waits for the next key. */
  private BlockHandle pendingHandle;
  private DataBlockListener dataBlockListener;
  private final List<RangeTombstone> rangeTombstones = new ArrayList<>();
  private boolean closed;

  /** Told of each data block as it is written: its offset in the file and its contents (no trailer). */
  @FunctionalInterface
  public interface DataBlockListener {
    /** The block is {@code contents[0, length)}, valid during the call only. */
    void written(long offset, byte[] contents, int length);
  }

  /** Builds a fresh table starting at {@code file.size()} (0 for a new file). */
  public TableBuilder(WritableFile file, TableOptions options) {
    this(file, options, Footer.NO_PREVIOUS, 0);
  }

  /**
   * Builds a table whose footer supersedes the one at {@code previousFooterOffset} of the same
   * file (block compaction; docs/format.md section 8). {@code extent} is the new footer's extent.
   */
  public TableBuilder(WritableFile file, TableOptions options, long previousFooterOffset, long extent) {
    this.file = file;
    this.options = options;
    this.startOffset = file.size();
    this.previousFooterOffset = previousFooterOffset;
    this.extent = extent;
    this.dataBlock = new BlockBuilder(options.restartInterval(), CMP, options.blockBytes());
    this.indexBlock = new BlockBuilder(1, CMP, 1024);
    this.filter = options.bloomBitsPerKey() > 0 ? new BloomFilterBuilder(options.bloomBitsPerKey()) : null;
    this.compressor = BlockCompressor.of(options.compression());
  }

  /** Tells {@code listener} of every data block written from now on (e.g. to warm a block cache). */
  public void onDataBlock(DataBlockListener listener) {
    this.dataBlockListener = listener;
  }

  /**
   * Adds an entry. Requires: {@code internalKey} is a valid internal key greater than every key
   * added before; not finished or abandoned.
   */
  public void add(byte[] internalKey, byte[] value) throws IOException {
    assert !closed : "add after finish/abandon";
    assert InternalKey.isValidPointEntry(internalKey) : "not a point entry's internal key";
    assert lastKey == null || CMP.compare(lastKey, internalKey) < 0
        : "keys out of order: " + InternalKey.describe(lastKey) + " then " + InternalKey.describe(internalKey);
    if (pendingHandle != null) {
      addIndexEntry(Separators.shortestSeparator(lastKey, internalKey), pendingHandle);
      pendingHandle = null;
    }
    if (filter != null && (lastKey == null || InternalKey.compareUserKeys(lastKey, internalKey) != 0)) {
      filter.addKey(InternalKey.userKey(internalKey));
    }
    stats.add(internalKey, value);
    dataBlock.add(internalKey, value);
    lastKey = internalKey;
    if (dataBlock.currentSizeEstimate() >= options.blockBytes()) {
      flushDataBlock();
    }
  }

  /**
   * Adds a range tombstone, written to the table's range-deletion block (docs/format.md section
   * 5a); the table's bounds then span it ({@link RangeTombstone#smallestKey()}).
   */
  public void addRangeTombstone(RangeTombstone t) {
    assert !closed : "add after finish/abandon";
    rangeTombstones.add(t);
  }

  /** Whether nothing was added: no entry and no range tombstone. */
  public boolean isEmpty() {
    return stats.entries() == 0 && rangeTombstones.isEmpty();
  }

  private void addIndexEntry(byte[] separator, BlockHandle handle) {
    indexBlock.add(separator, handle.encode());
  }

  private void flushDataBlock() throws IOException {
    if (dataBlock.isEmpty()) {
      return;
    }
    int length = dataBlock.finishInPlace();
    byte[] contents = dataBlock.array();
    BlockHandle handle = TableTail.writeBlock(file, contents, length, compressor);
    if (dataBlockListener != null) {
      dataBlockListener.written(handle.offset(), contents, length);
    }
    dataBlock.reset();
    rawDataBytes += length;
    storedDataBytes += handle.size();
    stats.addDataBlock(handle.size() + BlockTrailer.SIZE);
    pendingHandle = handle;
  }

  /** Bytes this builder has written so far plus the open data block. */
  public long estimatedSize() {
    return file.size() - startOffset + dataBlock.currentSizeEstimate();
  }

  public long entries() {
    return stats.entries();
  }

  /** Bytes of the data blocks written so far as built (their contents before compression). */
  public long rawDataBytes() {
    return rawDataBytes;
  }

  /** Bytes of the data blocks written so far as stored (compressed where it paid), trailers excluded. */
  public long storedDataBytes() {
    return storedDataBytes;
  }

  /**
   * Writes the last data block, the filter, properties and index blocks and the footer, and
   * flushes the file (no sync, no close).
   */
  public TableSummary finish() throws IOException {
    assert !closed : "finish twice or after abandon";
    closed = true;
    flushDataBlock();
    if (pendingHandle != null) {
      addIndexEntry(lastKey, pendingHandle);
      pendingHandle = null;
    }
    byte[] filterContents = filter == null ? null : filter.finish(options.filterReserve());
    try {
      RangeTombstones ranges = RangeTombstones.of(rangeTombstones);
      TableTail.Written tail = TableTail.write(file, filterContents, ranges, indexBlock.finish(), compressor,
          (indexBytes, filterBytes) -> stats.toProperties(indexBytes, filterBytes, options.bloomBitsPerKey(), extent),
          previousFooterOffset, Footer.versionFor(compressor.compresses(), !ranges.isEmpty()));
      return tail.summary();
    } finally {
      compressor.close();
    }
  }

  /** Stops building; nothing more is written. The caller deletes (or truncates) the file. */
  public void abandon() {
    closed = true;
    compressor.close();
  }

  /** Running totals for the properties block: the entries' ({@link EntryTotals}) and the blocks'. */
  private static final class TableStatsAccumulator {
    private final EntryTotals totals = new EntryTotals();
    private long dataBlocks;
    private long dataBytes;
    private byte[] smallest;
    private byte[] largest;

    void add(byte[] key, byte[] value) {
      totals.add(key, value);
      if (smallest == null) {
        smallest = key;
      }
      largest = key;
    }

    void addDataBlock(long bytesWithTrailer) {
      dataBlocks++;
      dataBytes += bytesWithTrailer;
    }

    long entries() {
      return totals.entries;
    }

    TableProperties toProperties(long indexBytes, long filterBytes, long bitsPerKey, long extent) {
      boolean empty = totals.entries == 0;
      return new TableProperties(totals.entries, totals.deletions,
          empty ? new byte[0] : Arrays.copyOf(smallest, smallest.length),
          empty ? new byte[0] : Arrays.copyOf(largest, largest.length),
          empty ? 0 : totals.minSeq, empty ? 0 : totals.maxSeq,
          totals.rawKeyBytes, totals.rawValueBytes, dataBlocks, dataBytes, indexBytes, filterBytes,
          bitsPerKey, System.currentTimeMillis(), TableProperties.CREATOR, extent);
    }
  }
}

package dev.cairn.table;

import dev.cairn.fs.WritableFile;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.RangeTombstone;
import dev.cairn.key.RangeTombstones;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockTrailer;
import dev.cairn.table.codec.BlockCompressor;
import java.io.IOException;

/**
 * Writes the tail that ends a table (docs/format.md): the filter block if there is one, the
 * range-deletion block if there is one, the properties block, the index block, then the footer,
 * and flushes the file. {@link TableBuilder}
 * and {@link TableAppender} both end a table here, so the tail's layout is written in one place.
 */
final class TableTail {
  private TableTail() {}

  /** The properties of the table being ended, once its index and filter sizes are known. */
  @FunctionalInterface
  interface Properties {
    /**
     * @param indexBytes index block size with its trailer
     * @param filterBytes filter block size with its trailer (0 = no filter)
     */
    TableProperties of(long indexBytes, long filterBytes);
  }

  /**
   * What {@link #write} wrote.
   *
   * @param properties the properties block's contents
   * @param propertiesBytes the properties block's size with its trailer
   * @param footerOffset where the footer starts
   * @param rangeDeletions the range tombstones written ({@link RangeTombstones#EMPTY}: none)
   * @param rangeDeletionBytes the range-deletion block's size with its trailer (0: none)
   */
  record Written(TableProperties properties, long propertiesBytes, long footerOffset, RangeTombstones rangeDeletions,
      long rangeDeletionBytes) {
    /**
     * The table as a level sees it: its bounds span its entries and its range tombstones (their
     * claims, {@link RangeTombstone#smallestKey()}), its sequences both.
     */
    TableSummary summary() {
      byte[] smallest = properties.entries() == 0 ? null : properties.smallest();
      byte[] largest = properties.entries() == 0 ? null : properties.largest();
      long smallestSequence = properties.entries() == 0 ? Long.MAX_VALUE : properties.smallestSequence();
      long largestSequence = properties.entries() == 0 ? 0 : properties.largestSequence();
      InternalKeyComparator cmp = InternalKeyComparator.INSTANCE;
      for (RangeTombstone t : rangeDeletions.all()) {
        byte[] lo = t.smallestKey();
        byte[] hi = t.largestKey();
        smallest = smallest == null || cmp.compare(lo, smallest) < 0 ? lo : smallest;
        largest = largest == null || cmp.compare(hi, largest) > 0 ? hi : largest;
        smallestSequence = Math.min(smallestSequence, t.sequence());
        largestSequence = Math.max(largestSequence, t.sequence());
      }
      boolean empty = smallest == null;
      return new TableSummary(footerOffset, footerOffset + Footer.SIZE, properties.entries(),
          empty ? new byte[0] : smallest, empty ? new byte[0] : largest, empty ? 0 : smallestSequence,
          largestSequence);
    }
  }

  /**
   * Appends a block stored as built (a filter or properties block, which are never compressed) and
   * its trailer at the file's end; returns its handle.
   */
  static BlockHandle writeBlock(WritableFile file, byte[] contents) throws IOException {
    return writeBlock(file, contents, BlockCompressor.NONE);
  }

  /**
   * Appends a data or index block in the form {@code compressor} stores it, and its trailer, at the
   * file's end; returns its handle (whose size is the stored contents').
   */
  static BlockHandle writeBlock(WritableFile file, byte[] contents, BlockCompressor compressor) throws IOException {
    return writeBlock(file, contents, contents.length, compressor);
  }

  /** As above, for the block {@code contents[0, length)}. */
  static BlockHandle writeBlock(WritableFile file, byte[] contents, int length, BlockCompressor compressor)
      throws IOException {
    return writeStored(file, compressor.store(contents, length));
  }

  private static BlockHandle writeStored(WritableFile file, BlockCompressor.Stored stored) throws IOException {
    long offset = file.size();
    file.append(stored.bytes(), 0, stored.length());
    file.append(BlockTrailer.encode(stored.bytes(), 0, stored.length(), stored.type()));
    return new BlockHandle(offset, stored.length());
  }

  /**
   * Appends the tail after the data blocks and flushes the file (no sync, no close).
   *
   * @param filter the filter block's contents, or null for a table without a filter
   * @param index the index block's contents, stored as {@code compressor} stores blocks
   * @param previousFooterOffset the footer this one supersedes, or {@link Footer#NO_PREVIOUS}
   * @param version the footer's format version ({@link Footer#versionFor(boolean, boolean)})
   */
  static Written write(WritableFile file, byte[] filter, byte[] index, BlockCompressor compressor,
      Properties properties, long previousFooterOffset, int version) throws IOException {
    return write(file, filter, RangeTombstones.EMPTY, index, compressor, properties, previousFooterOffset, version);
  }

  /** As above, with the table's range tombstones ({@link RangeTombstones#EMPTY}: none). */
  static Written write(WritableFile file, byte[] filter, RangeTombstones rangeDeletions, byte[] index,
      BlockCompressor compressor, Properties properties, long previousFooterOffset, int version) throws IOException {
    assert version >= Footer.VERSION_COMPRESSED || !compressor.compresses() : "compressed blocks in a version 1 table";
    assert version >= Footer.VERSION_RANGE_DELETIONS || rangeDeletions.isEmpty() : "range tombstones below version 3";
    BlockHandle filterHandle = filter == null ? BlockHandle.NONE : writeBlock(file, filter);
    BlockHandle rangeHandle = rangeDeletions.isEmpty() ? BlockHandle.NONE
        : writeBlock(file, RangeDeletionBlock.encode(rangeDeletions));
    BlockCompressor.Stored storedIndex = compressor.store(index); // its stored size is a property
    TableProperties props = properties.of(storedIndex.length() + BlockTrailer.SIZE,
        filter == null ? 0 : filterHandle.size() + BlockTrailer.SIZE).withRangeDeletions(rangeHandle);
    BlockHandle propertiesHandle = writeBlock(file, props.encode());
    BlockHandle indexHandle = writeStored(file, storedIndex);
    long footerOffset = file.size();
    file.append(new Footer(indexHandle, filterHandle, propertiesHandle, previousFooterOffset,
        version).encode());
    file.flush();
    return new Written(props, propertiesHandle.size() + BlockTrailer.SIZE, footerOffset, rangeDeletions,
        rangeDeletions.isEmpty() ? 0 : rangeHandle.size() + BlockTrailer.SIZE);
  }
}

package dev.cairn.table;

import dev.cairn.fs.WritableFile;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockTrailer;
import java.io.IOException;

/**
 * Writes the tail that ends a table (docs/format.md): the filter block if there is one, the
 * properties block, the index block, then the footer, and flushes the file. {@link TableBuilder}
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
   */
  record Written(TableProperties properties, long propertiesBytes, long footerOffset) {
    TableSummary summary() {
      return new TableSummary(footerOffset, footerOffset + Footer.SIZE, properties.entries(),
          properties.smallest(), properties.largest(), properties.smallestSequence(),
          properties.largestSequence());
    }
  }

  /**
   * Appends a block (data or tail) and its trailer at the file's end; returns its handle.
   */
  static BlockHandle writeBlock(WritableFile file, byte[] contents) throws IOException {
    long offset = file.size();
    file.append(contents);
    file.append(BlockTrailer.encode(contents, 0, contents.length));
    return new BlockHandle(offset, contents.length);
  }

  /**
   * Appends the tail after the data blocks and flushes the file (no sync, no close).
   *
   * @param filter the filter block's contents, or null for a table without a filter
   * @param index the index block's contents
   * @param previousFooterOffset the footer this one supersedes, or {@link Footer#NO_PREVIOUS}
   */
  static Written write(WritableFile file, byte[] filter, byte[] index, Properties properties,
      long previousFooterOffset) throws IOException {
    BlockHandle filterHandle = filter == null ? BlockHandle.NONE : writeBlock(file, filter);
    TableProperties props = properties.of(index.length + BlockTrailer.SIZE,
        filter == null ? 0 : filterHandle.size() + BlockTrailer.SIZE);
    BlockHandle propertiesHandle = writeBlock(file, props.encode());
    BlockHandle indexHandle = writeBlock(file, index);
    long footerOffset = file.size();
    file.append(new Footer(indexHandle, filterHandle, propertiesHandle, previousFooterOffset,
        Footer.FORMAT_VERSION).encode());
    file.flush();
    return new Written(props, propertiesHandle.size() + BlockTrailer.SIZE, footerOffset);
  }
}

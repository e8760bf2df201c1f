package dev.cairn.table;

import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.key.InternalKey;
import dev.cairn.table.block.Block;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockIterator;
import dev.cairn.table.filter.BloomFilterAppender;
import dev.cairn.table.filter.BloomFilterBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * The filter block of an appended footer (docs/format.md section 8): the old filter with the
 * appended keys ORed in while its estimated false-positive rate stays within the maximum
 * (BlockDB's reserved bits), else a filter rebuilt over every key the new index references.
 *
 * @param contents the filter block's contents
 * @param bitsPerKey the bits per key the filter was sized with
 * @param rebuilt whether it was rebuilt rather than ORed into
 */
record AppendedFilter(byte[] contents, long bitsPerKey, boolean rebuilt) {

  /**
   * The new footer's filter, or null when {@code options} write none.
   *
   * @param newKeyHashes hashes of the user keys of the appended blocks
   * @param newIndex the new index block's contents
   * @param firstNewOffset where the appended blocks start: blocks before it are reused ones
   */
  static AppendedFilter build(TableReader reader, ReadableFile file, TableOptions options,
      double maxFalsePositiveRate, List<Long> newKeyHashes, ByteBuffer newIndex,
      long firstNewOffset, IoTag tag) throws IOException {
    if (options.bloomBitsPerKey() == 0) {
      return null;
    }
    if (reader.footer().hasFilter()) {
      ByteBuffer old = StoredBlockReader.readVerified(file, reader.fileName(), reader.footer().filterHandle(), tag);
      byte[] bytes = new byte[old.remaining()];
      old.get(bytes);
      long[] hashes = newKeyHashes.stream().mapToLong(Long::longValue).toArray();
      byte[] ored = BloomFilterAppender.withKeys(bytes, hashes, hashes.length);
      if (BloomFilterAppender.estimatedFalsePositiveRate(ored) <= maxFalsePositiveRate) {
        return new AppendedFilter(ored, reader.properties().filterBitsPerKey(), false);
      }
    }
    return new AppendedFilter(rebuild(reader, options, newKeyHashes, newIndex, firstNewOffset, tag),
        options.bloomBitsPerKey(), true);
  }

  /**
   * A filter over every user key the new index references, with the configured reserve. The
   * reused blocks are read in index order through a compaction's read-ahead, so that each stretch
   * of them lying back to back in the file costs one read rather than one a block.
   */
  private static byte[] rebuild(TableReader reader, TableOptions options, List<Long> newKeyHashes,
      ByteBuffer newIndex, long firstNewOffset, IoTag tag) {
    BloomFilterBuilder builder = new BloomFilterBuilder(options.bloomBitsPerKey());
    // The new index as built in memory, not yet written: damage found in it is the appender's own
    // bug, reported at the first appended block's offset.
    TableIndex index = TableIndex.decode(new Block(newIndex, reader.fileName(), firstNewOffset), Long.MAX_VALUE);
    byte[] previous = null;
    try (Readahead readahead = reader.readahead(index, false)) { // null: block by block
      for (int i = 0; i < index.size(); i++) {
        BlockHandle h = index.handle(i);
        if (readahead != null) {
          readahead.noteAccess(i); // appended blocks too: the walk stays one run of the index
        }
        if (h.offset() >= firstNewOffset) {
          continue; // an appended block: its keys are in newKeyHashes
        }
        try (BlockRef ref = reader.acquireDataBlock(h, false, tag, readahead);
            BlockIterator it = ref.block().internalKeyIterator()) {
          for (it.seekToFirst(); it.isValid(); it.next()) {
            byte[] user = InternalKey.userKey(it.key());
            if (previous == null || !Arrays.equals(previous, user)) {
              builder.addKey(user);
              previous = user;
            }
          }
        }
      }
    }
    for (long h : newKeyHashes) {
      builder.addHash(h);
    }
    return builder.finish(options.filterReserve());
  }
}

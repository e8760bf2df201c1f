package dev.cairn.table;

import dev.cairn.config.Compression;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.WritableFile;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.table.block.Block;
import dev.cairn.table.block.BlockBuilder;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockTrailer;
import dev.cairn.table.codec.BlockCompressor;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Writes a new table holding some of an existing table's data blocks, each one's contents byte
 * for byte (stored as the new table's compression stores them), for
 * the compaction buffer's part compaction (docs/compaction.md, "Part compaction"): the buffer
 * keeps only some key ranges of a file, and this table answers every key of those ranges exactly
 * as the old one did, in the fraction of its space.
 *
 * <p>Why the answers are the same: a copied block keeps its contents and its index separator, so
 * a lookup of a key whose blocks were all copied seeks to the same block and finds the same
 * entry; the filter is the old table's, unchanged (it may say "maybe" for keys that were not
 * copied, which costs a block probe, never a wrong answer). The one key that could be answered
 * differently is a user key whose versions straddle the end of a copied range into a block that
 * was not asked for: the writer copies such blocks too (it reads the next block's first key when
 * the range's last key equals its separator's user key, which is when a straddle is possible).
 * Keys outside the copied ranges are not answered by the new table as the old one answered them;
 * its users never ask it for them.
 */
public final class TableSubset {
  private static final InternalKeyComparator CMP = InternalKeyComparator.INSTANCE;

  private TableSubset() {}

  /** Told of each block copied: its offset in the source table and in the new one, its contents. */
  @FunctionalInterface
  public interface CopiedBlock {
    void copied(long sourceOffset, long newOffset, ByteBuffer contents);
  }

  /**
   * Writes the blocks {@code blocks} (index positions in the source, ascending, no repeats) and
   * the straddling blocks they need, then the source's filter, new properties and index, and the
   * footer; flushes {@code out} (the caller syncs and closes it). Blocks are read without filling
   * the cache (a cached block is used from there), and stored as {@code compression} says.
   *
   * @return the new table's summary
   * @throws IllegalArgumentException when {@code blocks} is empty, unordered or out of range
   */
  public static TableSummary write(TableReader source, int[] blocks, WritableFile out, IoTag readTag,
      Compression compression, CopiedBlock onCopy) throws IOException {
    try (BlockCompressor compressor = BlockCompressor.of(compression)) {
      return write(source, blocks, out, readTag, compressor, onCopy);
    }
  }

  private static TableSummary write(TableReader source, int[] blocks, WritableFile out, IoTag readTag,
      BlockCompressor compressor, CopiedBlock onCopy) throws IOException {
    TableIndex index = source.index();
    int n = index.size();
    if (blocks.length == 0) {
      throw new IllegalArgumentException("no block to copy from " + source.fileName());
    }
    for (int i = 0; i < blocks.length; i++) {
      if (blocks[i] < 0 || blocks[i] >= n || (i > 0 && blocks[i] <= blocks[i - 1])) {
        throw new IllegalArgumentException("block positions must ascend within [0, " + n + ") in "
            + source.fileName() + ": position " + i + " is " + blocks[i]);
      }
    }
    BlockBuilder indexBlock = new BlockBuilder(1, CMP, 1024);
    EntryTotals totals = new EntryTotals();
    byte[] smallest = null;
    byte[] largest = null;
    long dataBlocks = 0;
    long dataBytes = 0;
    int next = 0; // position in blocks
    int b = blocks[0];
    while (b < n) {
      BlockHandle h = index.handle(b);
      byte[] lastKey;
      try (BlockRef ref = source.acquireDataBlock(h, false, readTag)) {
        Block block = ref.block();
        ByteBuffer contents = block.contents();
        byte[] bytes = new byte[contents.remaining()];
        contents.get(bytes);
        BlockHandle written = TableTail.writeBlock(out, bytes, compressor);
        onCopy.copied(h.offset(), written.offset(), block.contents());
        indexBlock.add(index.separator(b), written.encode());
        totals.addBlock(block);
        if (smallest == null) {
          smallest = DirtyBlocks.firstKey(block);
        }
        lastKey = DirtyBlocks.lastKey(block);
        dataBlocks++;
        dataBytes += written.size() + BlockTrailer.SIZE;
      }
      largest = lastKey;
      while (next < blocks.length && blocks[next] <= b) {
        next++;
      }
      if (b + 1 < n && (next < blocks.length && blocks[next] == b + 1 || straddles(source, index, b, lastKey, readTag))) {
        b++;
      } else if (next < blocks.length) {
        b = blocks[next];
      } else {
        break;
      }
    }
    byte[] filter = source.filterContents();
    TableProperties old = source.properties();
    byte[] first = smallest;
    byte[] last = largest;
    long blocksWritten = dataBlocks;
    long bytesWritten = dataBytes;
    TableTail.Written tail = TableTail.write(out, filter, indexBlock.finish(), compressor,
        (indexBytes, filterBytes) -> new TableProperties(totals.entries, totals.deletions, first, last,
            totals.minSeq, totals.maxSeq, totals.rawKeyBytes, totals.rawValueBytes,
            blocksWritten, bytesWritten, indexBytes, filterBytes,
            old.filterBitsPerKey(), System.currentTimeMillis(), TableProperties.CREATOR, 1),
        Footer.NO_PREVIOUS, Footer.versionFor(compressor.compresses()));
    return tail.summary();
  }

  /**
   * Whether block {@code b + 1} may hold versions of the user key {@code b} ends with: only when
   * that key is the user key of {@code b}'s separator (a separator is at or above the block's
   * last key, and equal user keys on both sides of a boundary keep the last key as separator).
   * Then the next block's first key tells.
   */
  private static boolean straddles(TableReader source, TableIndex index, int b, byte[] lastKey, IoTag readTag) {
    if (InternalKey.compareUserKeys(lastKey, index.separator(b)) != 0) {
      return false;
    }
    try (BlockRef ref = source.acquireDataBlock(index.handle(b + 1), false, readTag)) {
      return InternalKey.compareUserKeys(DirtyBlocks.firstKey(ref.block()), lastKey) == 0;
    }
  }
}

package dev.cairn.table;

import dev.cairn.CairnIOException;
import dev.cairn.CorruptionException;
import dev.cairn.cache.BlockCache;
import dev.cairn.cache.CachedBlock;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.ReadableFile;
import dev.cairn.table.block.Block;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockTrailer;
import dev.cairn.table.codec.StoredBlocks;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Reads one block of a table file as it is stored (docs/format.md section 3): its bytes and
 * trailer from the file, or from an iterator's read-ahead, checked against the trailer's checksum
 * and type, and turned into its contents as built. A data block missed by the cache lands in the
 * cache's memory when the read fills the cache: in a version 1 table (no compressed block) read
 * straight there with no heap copy; in a version 2 table read into the heap, checked, then
 * decompressed once into the cache's memory (a block stored as built there is copied).
 *
 * <p>One per {@link TableReader}; thread-safe (it holds nothing that changes).
 */
final class StoredBlockReader {
  private final ReadableFile file;
  private final String fileName;
  private final long fileNumber;
  private final BlockCache cache; // null when reads are uncached
  private final boolean compressed;

  StoredBlockReader(ReadableFile file, String fileName, long fileNumber, BlockCache cache, boolean compressed) {
    this.file = file;
    this.fileName = fileName;
    this.fileNumber = fileNumber;
    this.cache = cache;
    this.compressed = compressed;
  }

  static int storedBytes(BlockHandle h) {
    return Math.toIntExact(h.size() + BlockTrailer.SIZE);
  }

  /**
   * Reads block {@code h} and its trailer into {@code target} (index 0 to its limit, the block's
   * stored size), failing as corruption when the file ends first; the bytes are not checked yet.
   */
  private static void readStored(ReadableFile file, String fileName, BlockHandle h, IoTag tag, ByteBuffer target)
      throws IOException {
    int wanted = target.limit();
    int n = file.read(h.offset(), target.duplicate().position(0), tag);
    if (n != wanted) {
      throw new CorruptionException(fileName, h.offset(),
          "truncated block: wanted " + wanted + " bytes, got " + Math.max(0, n));
    }
  }

  /**
   * Reads a block stored as built (a filter or properties block) and its trailer, verifies type
   * and CRC, returns the contents (heap).
   */
  static ByteBuffer readVerified(ReadableFile file, String fileName, BlockHandle h, IoTag tag) throws IOException {
    return readContents(file, fileName, h, tag, false);
  }

  /**
   * Reads a data or index block and its trailer, verifies its CRC, returns its contents as built
   * (heap): decompressed if it was stored compressed, which only a table whose footer says so
   * ({@code compressed}) may hold.
   */
  static ByteBuffer readContents(ReadableFile file, String fileName, BlockHandle h, IoTag tag, boolean compressed)
      throws IOException {
    ByteBuffer raw = ByteBuffer.allocate(storedBytes(h));
    readStored(file, fileName, h, tag, raw);
    return decodeStored(raw, fileName, h.offset(), compressed);
  }

  /**
   * The contents as built of a block read with its trailer into the heap buffer {@code raw} (index
   * 0 to its limit), CRC checked here: a view of {@code raw} when stored as built, else the
   * decompressed bytes. {@code compressed}: whether the block's table may hold compressed blocks.
   */
  static ByteBuffer decodeStored(ByteBuffer raw, String fileName, long blockOffset, boolean compressed) {
    if (!compressed) {
      return raw.slice(0, BlockTrailer.verify(raw, fileName, blockOffset));
    }
    int n = BlockTrailer.verifyStored(raw, fileName, blockOffset);
    return StoredBlocks.contents(BlockTrailer.type(raw), raw.array(), raw.arrayOffset(), n, fileName, blockOffset);
  }

  /** {@code cached} as a block of this file at {@code h}; the reference is released if that fails. */
  static BlockRef pin(CachedBlock cached, String fileName, BlockHandle h) {
    try {
      return new BlockRef(Block.of(cached.contents(), fileName, h), cached);
    } catch (RuntimeException e) {
      cached.close();
      throw e;
    }
  }

  /**
   * Data block {@code h}, missed by the cache: read with {@code tag} (from {@code readahead} when it
   * can serve it), checked, and cached if {@code fillCache} and there is a cache (else a private
   * copy).
   */
  BlockRef read(BlockHandle h, boolean fillCache, IoTag tag, Readahead readahead) {
    boolean caching = fillCache && cache != null && cache.capacityBytes() > 0;
    try {
      if (compressed) {
        return readMaybeCompressed(h, caching, tag, readahead);
      }
      if (caching) {
        // Read straight into the cache's memory: no heap buffer, no copy into the cache.
        CachedBlock read = cache.insertRead(fileNumber, h.offset(), storedBytes(h), target -> {
          readStoredInto(h, tag, target, readahead);
          return BlockTrailer.verify(target, fileName, h.offset());
        });
        return pin(read, fileName, h);
      }
      ByteBuffer raw = ByteBuffer.allocate(storedBytes(h));
      readStoredInto(h, tag, raw, readahead);
      return new BlockRef(new Block(raw.slice(0, BlockTrailer.verify(raw, fileName, h.offset())), fileName,
          h.offset()), null);
    } catch (IOException e) {
      throw new CairnIOException("read block " + h + " of " + fileName, e);
    }
  }

  /**
   * {@link #read} in a table whose blocks may be stored compressed: the stored bytes are read into
   * the heap and checked, then a compressed block is decompressed once, into the cache's memory
   * when it is cached (a block stored as built is copied there).
   */
  private BlockRef readMaybeCompressed(BlockHandle h, boolean caching, IoTag tag, Readahead readahead)
      throws IOException {
    ByteBuffer raw = ByteBuffer.allocate(storedBytes(h));
    readStoredInto(h, tag, raw, readahead);
    int n = BlockTrailer.verifyStored(raw, fileName, h.offset());
    int type = BlockTrailer.type(raw);
    if (!caching) {
      return new BlockRef(Block.of(StoredBlocks.contents(type, raw.array(), 0, n, fileName, h.offset()),
          fileName, h), null);
    }
    if (type == BlockTrailer.TYPE_UNCOMPRESSED) {
      return pin(cache.insert(fileNumber, h.offset(), raw.slice(0, n)), fileName, h);
    }
    int rawLength = StoredBlocks.rawLength(type, raw.array(), 0, n, fileName, h.offset());
    CachedBlock read = cache.insertRead(fileNumber, h.offset(), rawLength,
        target -> StoredBlocks.decompress(type, raw.array(), 0, n, target, fileName, h.offset()));
    return pin(read, fileName, h);
  }

  /**
   * Block {@code h} with its trailer into {@code target} (limit = its stored size), from the
   * read-ahead when it can serve it, else read from the file; not checked yet.
   */
  private void readStoredInto(BlockHandle h, IoTag tag, ByteBuffer target, Readahead readahead) throws IOException {
    if (readahead == null || !readahead.copyBlock(file, h, target, tag)) {
      readStored(file, fileName, h, tag, target);
    }
  }
}

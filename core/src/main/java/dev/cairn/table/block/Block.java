package dev.cairn.table.block;

import dev.cairn.CorruptionException;
import dev.cairn.key.InternalKeyComparator;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Comparator;

/**
 * A read-only view of a key/value block's contents (layout in {@link BlockBuilder} and
 * docs/format.md section 3.1), on-heap or off-heap. The bytes are expected to have passed their
 * checksum already; every decode is still bounds-checked so that damage that slips through
 * raises {@link CorruptionException} (naming the file and an offset in it), never garbage. In a
 * block stored as built that offset is the damaged byte's own; in a block that was decompressed
 * it is the block's, as the contents' positions are not the file's, and the reason names the
 * position within the decompressed contents.
 *
 * <p>Immutable after construction and safe to share; each {@link #iterator} is single-threaded.
 * The caller keeps the memory behind {@code contents} alive while iterators are in use.
 */
public final class Block {
  private final ByteBuffer contents;
  private final String fileName;
  private final long blockOffset;
  /** Whether the contents are the file's bytes from {@code blockOffset} (not decompressed). */
  private final boolean asStored;
  private final int restartsOffset;
  private final int restartCount;

  /**
   * A block whose contents are stored as built: its positions are the file's bytes from {@code
   * blockOffset}.
   *
   * @param contents the block's contents, positions 0..limit (a slice; not modified)
   * @param fileName for error messages
   * @param blockOffset the block's offset in the file, for error messages
   */
  public Block(ByteBuffer contents, String fileName, long blockOffset) {
    this(contents, fileName, blockOffset, true);
  }

  /**
   * Block {@code h}'s contents as built, which are its stored bytes unless it was stored
   * compressed: a writer stores a block compressed only where that saves an eighth of it
   * (docs/format.md section 3.2), and every block holds at least its restart count and one restart
   * (8 bytes), so a compressed block is stored smaller than its contents, and contents of another
   * size than the handle's were decompressed: their positions are not the file's. (A crafted file
   * could break that rule; its damage would then be reported at a position that is no byte of it,
   * still naming the block.)
   *
   * @param contents the block's contents as built, positions 0..limit (a slice; not modified)
   * @param fileName for error messages
   * @param h the block's handle in its table
   */
  public static Block of(ByteBuffer contents, String fileName, BlockHandle h) {
    return new Block(contents, fileName, h.offset(), contents.remaining() == h.size());
  }

  private Block(ByteBuffer contents, String fileName, long blockOffset, boolean asStored) {
    this.contents = contents.slice().order(ByteOrder.LITTLE_ENDIAN);
    this.fileName = fileName;
    this.blockOffset = blockOffset;
    this.asStored = asStored;
    int size = this.contents.limit();
    if (size < 4) {
      throw corruption(0, "block of " + size + " bytes has no restart count");
    }
    int n = this.contents.getInt(size - 4);
    if (n < 1 || n > (size - 4) / 4) {
      throw corruption(size - 4, "bad restart count " + Integer.toUnsignedString(n)
          + " for a block of " + size + " bytes");
    }
    this.restartCount = n;
    this.restartsOffset = size - 4 - 4 * n;
  }

  public int size() {
    return contents.limit();
  }

  /**
   * The block's contents as built (a read-only view, positions 0..limit): what its file stores
   * before the trailer, unless the block was stored compressed.
   */
  public ByteBuffer contents() {
    return contents.asReadOnlyBuffer();
  }

  public String fileName() {
    return fileName;
  }

  public long blockOffset() {
    return blockOffset;
  }

  int restartCount() {
    return restartCount;
  }

  /** Offset of restart point {@code i}, validated to lie in the entry region. */
  int restartPoint(int i) {
    int p = contents.getInt(restartsOffset + 4 * i);
    if (p < 0 || p >= Math.max(1, restartsOffset) || (restartsOffset == 0 && p != 0)) {
      throw corruption(restartsOffset + 4 * i, "restart point " + p + " outside entries");
    }
    return p;
  }

  /** End of the entry region (start of the restart array). */
  int entriesEnd() {
    return restartsOffset;
  }

  ByteBuffer buffer() {
    return contents;
  }

  /** Damage found at {@code position} of the contents, located in the file as well as it can be. */
  CorruptionException corruption(int position, String reason) {
    return asStored
        ? new CorruptionException(fileName, blockOffset + position, reason)
        : new CorruptionException(fileName, blockOffset,
            reason + " (at byte " + position + " of the block's " + contents.limit() + " decompressed bytes)");
  }

  /** An iterator over keys of any shape, ordered by {@code comparator} (index-free uses, properties). */
  public BlockIterator iterator(Comparator<byte[]> comparator) {
    return new BlockIterator(this, comparator, false);
  }

  /**
   * An iterator over a block of internal keys (data and index blocks), ordered by {@link
   * InternalKeyComparator}. Every key it decodes, including the restart keys a seek compares, is
   * checked to be a well-formed internal key of a point entry first: the comparator cannot order
   * a key shorter than its trailer, and a range deletion here would read as a point deletion, so
   * either is reported as corruption at its entry's offset.
   */
  public BlockIterator internalKeyIterator() {
    return new BlockIterator(this, InternalKeyComparator.INSTANCE, true);
  }
}

package dev.cairn.table.block;

import dev.cairn.util.ByteSink;
import dev.cairn.util.ByteSource;

/**
 * Where a block lives in a table file: the offset of its first byte and the size of its contents,
 * not counting the {@link BlockTrailer#SIZE}-byte trailer that follows (docs/format.md section 3).
 *
 * <pre>
 *   varint64 offset | varint64 size          (in index entries)
 *   fixed64  offset | fixed64  size          (in the footer, see Footer)
 * </pre>
 */
public record BlockHandle(long offset, long size) {
  /** Longest varint encoding: two varint64s. */
  public static final int MAX_ENCODED_LENGTH = 20;
  /** The footer's filter handle when a table has no filter. */
  public static final BlockHandle NONE = new BlockHandle(0, 0);
  /**
   * The largest block size a handle may name: a reader holds a block and its trailer in one Java
   * array, whose length the JVM keeps a few bytes below {@code Integer.MAX_VALUE}. A larger size is
   * corruption, refused before anything is allocated for it.
   */
  public static final long MAX_SIZE = Integer.MAX_VALUE - 16;

  public BlockHandle {
    assert offset >= 0 && size >= 0 : "negative handle " + offset + "+" + size;
  }

  /** Offset just past the block's trailer. */
  public long end() {
    return offset + size + BlockTrailer.SIZE;
  }

  /**
   * Whether the block and its trailer end at or before {@code limit} (a footer's offset), computed
   * without overflow: a corrupt offset near 2^63 would otherwise wrap and pass.
   */
  public boolean endsBy(long limit) {
    return offset <= limit - BlockTrailer.SIZE - size;
  }

  /** Whether a handle of these fields could name a block: neither negative, the size at most {@link #MAX_SIZE}. */
  public static boolean plausible(long offset, long size) {
    return offset >= 0 && size >= 0 && size <= MAX_SIZE;
  }

  public void encodeTo(ByteSink sink) {
    sink.putVarint64(offset).putVarint64(size);
  }

  public byte[] encode() {
    ByteSink sink = new ByteSink(MAX_ENCODED_LENGTH);
    encodeTo(sink);
    return sink.toByteArray();
  }

  /** Decodes a varint handle; structural damage raises a CorruptionException. */
  public static BlockHandle decode(ByteSource src) {
    long offset = src.getVarint64();
    long size = src.getVarint64();
    if (!plausible(offset, size)) {
      throw src.corruption("bad block handle " + offset + "+" + size);
    }
    return new BlockHandle(offset, size);
  }

  @Override
  public String toString() {
    return offset + "+" + size;
  }
}

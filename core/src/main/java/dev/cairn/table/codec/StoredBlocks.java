package dev.cairn.table.codec;

import dev.cairn.CorruptionException;
import dev.cairn.util.ByteSource;
import java.nio.ByteBuffer;

/**
 * Reads a stored block back (docs/format.md section 3.2): a block of type 0 is its contents; a
 * compressed one is {@code varint32 raw length | codec payload}. The raw length is checked before
 * anything is allocated for it (at most what the codec can expand the payload into, and at most
 * {@link #MAX_RAW_BYTES}), and the codec must give exactly that many bytes; anything else is a
 * {@link CorruptionException} naming the file and the block's offset, never data.
 *
 * <p>The checksum is over the stored bytes and is checked before this (it is the trailer's), so
 * what reaches a codec was written by a codec; the checks here are for the bytes that a bug, or a
 * crafted file, gets past the checksum.
 */
public final class StoredBlocks {
  /**
   * The largest raw block a reader decompresses: a data block is cut at most 1 MiB into its
   * entries ({@code Options.blockBytes}) and holds one entry past that, whose value is at most
   * 64 MiB. A larger block (an index of millions of entries) is stored uncompressed ({@link
   * BlockCompressor#store}).
   */
  public static final int MAX_RAW_BYTES = 80 << 20;

  private StoredBlocks() {}

  /** A compressed block's header, checked: its codec, the raw length it claims, where its payload lies. */
  private record Header(BlockCodec codec, int rawLength, int payloadOff, int payloadLen) {}

  private static Header header(int type, byte[] stored, int off, int len, String fileName, long blockOffset) {
    BlockCodec codec = codec(type, fileName, blockOffset);
    ByteSource in = new ByteSource(stored, off, len, fileName, blockOffset);
    long value;
    try {
      value = in.getVarint64();
    } catch (CorruptionException e) {
      throw new CorruptionException(fileName, blockOffset, codec.name() + " block with a malformed raw length ("
          + e.reason() + ")");
    }
    int payload = in.remaining();
    long bound = Math.min(MAX_RAW_BYTES, codec.maxRawBytes(payload));
    if (value < 0 || value > bound) {
      throw new CorruptionException(fileName, blockOffset, codec.name() + " block claims " + value
          + " raw bytes from a payload of " + payload + " (at most " + bound + ")");
    }
    return new Header(codec, (int) value, in.position(), payload);
  }

  /**
   * The raw length a compressed block of {@code type} claims, checked: {@code stored[off, off +
   * len)} are its stored contents.
   */
  public static int rawLength(int type, byte[] stored, int off, int len, String fileName, long blockOffset) {
    return header(type, stored, off, len, fileName, blockOffset).rawLength();
  }

  /**
   * Decompresses the compressed block {@code stored[off, off + len)} of {@code type} into {@code
   * dst} from its position, which moves past it; {@code dst} has room for {@link #rawLength}'s
   * bytes. Returns that length.
   */
  public static int decompress(int type, byte[] stored, int off, int len, ByteBuffer dst, String fileName,
      long blockOffset) {
    return decompress(header(type, stored, off, len, fileName, blockOffset), stored, dst, fileName, blockOffset);
  }

  private static int decompress(Header h, byte[] stored, ByteBuffer dst, String fileName, long blockOffset) {
    try {
      h.codec().decompress(stored, h.payloadOff(), h.payloadLen(), dst, h.rawLength());
    } catch (RuntimeException e) {
      throw new CorruptionException(fileName, blockOffset,
          h.codec().name() + " block does not decompress to its " + h.rawLength() + " raw bytes: " + e.getMessage());
    }
    return h.rawLength();
  }

  /**
   * The contents of a block stored as {@code stored[off, off + len)} under {@code type}: a view of
   * {@code stored} for type 0, else a new heap buffer of the decompressed bytes.
   */
  public static ByteBuffer contents(int type, byte[] stored, int off, int len, String fileName, long blockOffset) {
    if (type == BlockCodecs.TYPE_NONE) {
      return ByteBuffer.wrap(stored, off, len).slice();
    }
    Header h = header(type, stored, off, len, fileName, blockOffset);
    ByteBuffer out = ByteBuffer.allocate(h.rawLength());
    decompress(h, stored, out, fileName, blockOffset);
    return out.flip();
  }

  private static BlockCodec codec(int type, String fileName, long blockOffset) {
    if (type < 1 || type > BlockCodecs.MAX_TYPE) {
      throw new CorruptionException(fileName, blockOffset, "unknown block type " + type);
    }
    return BlockCodecs.forType(type);
  }
}

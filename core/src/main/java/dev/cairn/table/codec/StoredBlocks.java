package dev.cairn.table.codec;

import dev.cairn.CorruptionException;
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
   * The largest raw block a reader accepts: a data block is cut at most 1 MiB into its entries
   * ({@code Options.blockBytes}) and holds one entry past that, whose value is at most 64 MiB.
   */
  public static final int MAX_RAW_BYTES = 80 << 20;

  private StoredBlocks() {}

  /**
   * The raw length a compressed block of {@code type} claims, checked: {@code stored[off, off +
   * len)} are its stored contents.
   */
  public static int rawLength(int type, byte[] stored, int off, int len, String fileName, long blockOffset) {
    BlockCodec codec = codec(type, fileName, blockOffset);
    long value = 0;
    int at = off;
    int end = off + len;
    for (int shift = 0; ; shift += 7) {
      if (at == end || shift > 28) {
        throw new CorruptionException(fileName, blockOffset, codec.name() + " block with a malformed raw length");
      }
      byte b = stored[at++];
      value |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        break;
      }
    }
    int payload = end - at;
    if (value > MAX_RAW_BYTES || value > codec.maxRawBytes(payload)) {
      throw new CorruptionException(fileName, blockOffset, codec.name() + " block claims " + value
          + " raw bytes from a payload of " + payload + " (at most " + Math.min(MAX_RAW_BYTES,
              codec.maxRawBytes(payload)) + ")");
    }
    return (int) value;
  }

  /**
   * Decompresses the compressed block {@code stored[off, off + len)} of {@code type} into {@code
   * dst} from its position, which moves past it; {@code dst} has room for {@link #rawLength}'s
   * bytes. Returns that length.
   */
  public static int decompress(int type, byte[] stored, int off, int len, ByteBuffer dst, String fileName,
      long blockOffset) {
    int raw = rawLength(type, stored, off, len, fileName, blockOffset);
    BlockCodec codec = BlockCodecs.forType(type);
    int header = varintBytes(stored, off);
    try {
      codec.decompress(stored, off + header, len - header, dst, raw);
    } catch (RuntimeException e) {
      throw new CorruptionException(fileName, blockOffset,
          codec.name() + " block does not decompress to its " + raw + " raw bytes: " + e.getMessage());
    }
    return raw;
  }

  /**
   * The contents of a block stored as {@code stored[off, off + len)} under {@code type}: a view of
   * {@code stored} for type 0, else a new heap buffer of the decompressed bytes.
   */
  public static ByteBuffer contents(int type, byte[] stored, int off, int len, String fileName, long blockOffset) {
    if (type == BlockCodecs.TYPE_NONE) {
      return ByteBuffer.wrap(stored, off, len).slice();
    }
    ByteBuffer out = ByteBuffer.allocate(rawLength(type, stored, off, len, fileName, blockOffset));
    decompress(type, stored, off, len, out, fileName, blockOffset);
    return out.flip();
  }

  private static BlockCodec codec(int type, String fileName, long blockOffset) {
    if (type < 1 || type > BlockCodecs.MAX_TYPE) {
      throw new CorruptionException(fileName, blockOffset, "unknown block type " + type);
    }
    return BlockCodecs.forType(type);
  }

  /** Bytes of the varint at {@code off}, which {@link #rawLength} has checked. */
  private static int varintBytes(byte[] stored, int off) {
    int n = 1;
    while (stored[off + n - 1] < 0) {
      n++;
    }
    return n;
  }
}

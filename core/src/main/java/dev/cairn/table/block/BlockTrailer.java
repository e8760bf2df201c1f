package dev.cairn.table.block;

import dev.cairn.CorruptionException;
import dev.cairn.util.Checksums;
import dev.cairn.util.Coding;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The 5 bytes after every block's contents (docs/format.md section 3):
 *
 * <pre>
 *   +----------+-------------------------------------------------+
 *   | type: u8 | fixed32: masked CRC32C over contents + type byte |
 *   +----------+-------------------------------------------------+
 * </pre>
 *
 * Block type ids are persistent and never reused: 0 stored as built, 1 LZ4, 2 ZSTD
 * ({@link dev.cairn.table.codec.BlockCodecs}; section 3.2).
 */
public final class BlockTrailer {
  public static final int SIZE = 5;
  /** Contents stored as built. */
  public static final int TYPE_UNCOMPRESSED = dev.cairn.table.codec.BlockCodecs.TYPE_NONE;
  /** The largest type id this release reads. */
  public static final int MAX_TYPE = dev.cairn.table.codec.BlockCodecs.MAX_TYPE;

  private BlockTrailer() {}

  /** The masked CRC of {@code contents[off, off+len)} followed by {@code type}. */
  public static int maskedCrc(byte[] contents, int off, int len, int type) {
    return maskedCrc(ByteBuffer.wrap(contents, off, len), type);
  }

  /** The masked CRC of {@code contents}' remaining bytes followed by {@code type}; position unchanged. */
  private static int maskedCrc(ByteBuffer contents, int type) {
    CRC32C crc = new CRC32C();
    crc.update(contents.duplicate());
    crc.update(type);
    return Checksums.mask((int) crc.getValue());
  }

  /** The trailer for an uncompressed block. */
  public static byte[] encode(byte[] contents, int off, int len) {
    return encode(contents, off, len, TYPE_UNCOMPRESSED);
  }

  /** The trailer for a block stored as {@code contents[off, off+len)} under {@code type}. */
  public static byte[] encode(byte[] contents, int off, int len, int type) {
    byte[] trailer = new byte[SIZE];
    trailer[0] = (byte) type;
    Coding.putFixed32(trailer, 1, maskedCrc(contents, off, len, type));
    return trailer;
  }

  /** The type byte of a block read as {@code raw} (contents + trailer, index 0 to its limit). */
  public static int type(ByteBuffer raw) {
    return raw.get(raw.limit() - SIZE) & 0xff;
  }

  /**
   * Checks the trailer of a block read as {@code raw} = contents + trailer, read from {@code
   * blockOffset} of {@code fileName}; returns the contents as a heap buffer over {@code raw}.
   */
  public static ByteBuffer verify(byte[] raw, String fileName, long blockOffset) {
    int contentsLength = verify(ByteBuffer.wrap(raw), fileName, blockOffset);
    return ByteBuffer.wrap(raw, 0, contentsLength).slice();
  }

  /**
   * {@link #verify(byte[], String, long)} for a block read into {@code raw} from index 0 to its
   * limit (any memory, direct included; position and limit unchanged): returns the length of the
   * contents, which are {@code raw}'s first bytes. A block stored compressed is corruption here:
   * this is for blocks that are never compressed (filter, properties) and for tables whose format
   * version has no compressed blocks.
   */
  public static int verify(ByteBuffer raw, String fileName, long blockOffset) {
    int contentsLength = verifyStored(raw, fileName, blockOffset);
    int type = type(raw);
    if (type != TYPE_UNCOMPRESSED) {
      throw new CorruptionException(fileName, blockOffset, type <= MAX_TYPE
          ? "compressed block (type " + type + ") where only uncompressed ones are written"
          : "unknown block type " + type);
    }
    return contentsLength;
  }

  /**
   * Checks the checksum of a block read into {@code raw} from index 0 to its limit, stored under
   * any type this release reads ({@link #type}); returns the length of the stored contents.
   */
  public static int verifyStored(ByteBuffer raw, String fileName, long blockOffset) {
    int length = raw.limit();
    if (length < SIZE) {
      throw new CorruptionException(fileName, blockOffset, "block shorter than its trailer");
    }
    int contentsLength = length - SIZE;
    int type = raw.get(contentsLength) & 0xff;
    int stored = raw.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(contentsLength + 1); // fixed32
    int actual = maskedCrc(raw.duplicate().position(0).limit(contentsLength), type);
    if (stored != actual) {
      throw new CorruptionException(fileName, blockOffset,
          "block checksum mismatch (" + contentsLength + " bytes, stored "
              + Integer.toHexString(stored) + ", computed " + Integer.toHexString(actual) + ")");
    }
    if (type > MAX_TYPE) {
      throw new CorruptionException(fileName, blockOffset, "unknown block type " + type);
    }
    return contentsLength;
  }
}

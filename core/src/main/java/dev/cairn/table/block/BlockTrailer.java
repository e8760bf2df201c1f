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
 * Block type ids are persistent and never reused.
 */
public final class BlockTrailer {
  public static final int SIZE = 5;
  /** Contents stored as is. Other ids are reserved for compression. */
  public static final int TYPE_UNCOMPRESSED = 0;

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
    byte[] trailer = new byte[SIZE];
    trailer[0] = TYPE_UNCOMPRESSED;
    Coding.putFixed32(trailer, 1, maskedCrc(contents, off, len, TYPE_UNCOMPRESSED));
    return trailer;
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
   * contents, which are {@code raw}'s first bytes.
   */
  public static int verify(ByteBuffer raw, String fileName, long blockOffset) {
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
    if (type != TYPE_UNCOMPRESSED) {
      throw new CorruptionException(fileName, blockOffset, "unknown block type " + type);
    }
    return contentsLength;
  }
}

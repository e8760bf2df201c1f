package dev.cairn.table;

import dev.cairn.CorruptionException;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.util.Checksums;
import dev.cairn.util.Coding;

/**
 * The fixed-size footer that makes a table (docs/format.md section 7). A table file may hold
 * several footers (one per append); the manifest names the current one.
 *
 * <pre>
 *   offset size
 *    0     16   index handle       fixed64 offset | fixed64 size
 *   16     16   filter handle      fixed64 offset | fixed64 size  (0, 0 = no filter)
 *   32     16   properties handle  fixed64 offset | fixed64 size
 *   48      8   previous footer    fixed64, -1 if none
 *   56      4   format version     fixed32: 1 (no block compressed), 2 (blocks may be), 3 (and
 *                                   a range-deletion block)
 *   60      4   footer CRC         fixed32 masked CRC32C of bytes [0, 60)
 *   64      8   magic              fixed64 0x4e5241435f424154
 * </pre>
 */
public record Footer(
    BlockHandle indexHandle,
    BlockHandle filterHandle,
    BlockHandle propertiesHandle,
    long previousFooterOffset,
    int version) {
  public static final int SIZE = 72;
  /** Every block stored as built (type 0); what every release reads. */
  public static final int VERSION_UNCOMPRESSED = 1;
  /** Data and index blocks may be stored compressed (docs/format.md section 3.2). */
  public static final int VERSION_COMPRESSED = 2;
  /** As version 2, and the properties may name a range-deletion block (docs/format.md section 5a). */
  public static final int VERSION_RANGE_DELETIONS = 3;
  /** The newest version this release reads. */
  public static final int FORMAT_VERSION = VERSION_RANGE_DELETIONS;
  public static final long MAGIC = 0x4e5241435f424154L;
  /** {@link #previousFooterOffset} of a table's first footer. */
  public static final long NO_PREVIOUS = -1;

  private static final int VERSION_AT = 56;
  private static final int CRC_AT = 60;
  private static final int MAGIC_AT = 64;

  public boolean hasFilter() {
    return filterHandle.size() != 0;
  }

  /** Whether this footer's data and index blocks may be stored compressed. */
  public boolean mayHoldCompressedBlocks() {
    return version >= VERSION_COMPRESSED;
  }

  /** The version of a table whose blocks {@code compressed} may be stored compressed. */
  public static int versionFor(boolean compressed) {
    return compressed ? VERSION_COMPRESSED : VERSION_UNCOMPRESSED;
  }

  /**
   * The version of a table whose blocks {@code compressed} may be stored compressed and that
   * {@code rangeDeletions} holds range tombstones: the lowest that reads it, so that a table
   * without tombstones stays readable by releases before them.
   */
  public static int versionFor(boolean compressed, boolean rangeDeletions) {
    return rangeDeletions ? VERSION_RANGE_DELETIONS : versionFor(compressed);
  }

  /** Whether this footer's properties may name a range-deletion block. */
  public boolean mayHoldRangeDeletions() {
    return version >= VERSION_RANGE_DELETIONS;
  }

  public byte[] encode() {
    byte[] out = new byte[SIZE];
    putHandle(out, 0, indexHandle);
    putHandle(out, 16, filterHandle);
    putHandle(out, 32, propertiesHandle);
    Coding.putFixed64(out, 48, previousFooterOffset);
    Coding.putFixed32(out, VERSION_AT, version);
    Coding.putFixed32(out, CRC_AT, Checksums.mask(Checksums.crc32c(out, 0, CRC_AT)));
    Coding.putFixed64(out, MAGIC_AT, MAGIC);
    return out;
  }

  private static void putHandle(byte[] out, int at, BlockHandle h) {
    Coding.putFixed64(out, at, h.offset());
    Coding.putFixed64(out, at + 8, h.size());
  }

  /**
   * Decodes and checks the footer read at {@code footerOffset}: magic, version, CRC, and that
   * every handle lies before the footer.
   */
  public static Footer decode(byte[] raw, String fileName, long footerOffset) {
    if (raw.length != SIZE) {
      throw new CorruptionException(fileName, footerOffset,
          "truncated footer: " + raw.length + " of " + SIZE + " bytes");
    }
    long magic = Coding.getFixed64(raw, MAGIC_AT);
    if (magic != MAGIC) {
      throw new CorruptionException(fileName, footerOffset,
          "bad table magic " + Long.toHexString(magic) + " (is this offset a footer?)");
    }
    long version = Coding.getFixed32(raw, VERSION_AT) & 0xffffffffL;
    if (version > FORMAT_VERSION) {
      throw new UnsupportedTableVersionException(fileName, footerOffset, version);
    }
    if (version < 1) {
      throw new CorruptionException(fileName, footerOffset + VERSION_AT, "format version 0");
    }
    int stored = Coding.getFixed32(raw, CRC_AT);
    int actual = Checksums.mask(Checksums.crc32c(raw, 0, CRC_AT));
    if (stored != actual) {
      throw new CorruptionException(fileName, footerOffset, "footer checksum mismatch");
    }
    BlockHandle index = handle(raw, 0, fileName, footerOffset, "index");
    BlockHandle filter = handle(raw, 16, fileName, footerOffset, "filter");
    BlockHandle properties = handle(raw, 32, fileName, footerOffset, "properties");
    long previous = Coding.getFixed64(raw, 48);
    if (previous != NO_PREVIOUS && (previous < 0 || previous > footerOffset - SIZE)) {
      throw new CorruptionException(fileName, footerOffset + 48,
          "previous footer offset " + previous + " not before this footer");
    }
    return new Footer(index, filter, properties, previous, (int) version);
  }

  private static BlockHandle handle(
      byte[] raw, int at, String fileName, long footerOffset, String what) {
    long offset = Coding.getFixed64(raw, at);
    long size = Coding.getFixed64(raw, at + 8);
    boolean absentFilter = what.equals("filter") && offset == 0 && size == 0;
    if (!absentFilter
        && (!BlockHandle.plausible(offset, size) || !new BlockHandle(offset, size).endsBy(footerOffset))) {
      throw new CorruptionException(fileName, footerOffset + at,
          "bad " + what + " handle " + offset + "+" + size + " for a footer at " + footerOffset);
    }
    return new BlockHandle(offset, size);
  }
}

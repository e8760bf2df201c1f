package dev.cairn.version;

import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.model.TableFile;
import java.util.Arrays;

/**
 * A table as the manifest describes it (docs/manifest_format.md, "File metadata"). Immutable;
 * the key arrays are not copied, and callers must not modify them.
 *
 * <p>A table is appendable: block compaction appends blocks and a new footer at its tail, so
 * {@code footerOffset} names the footer that makes up the table now, {@code totalBytes} is the
 * file's length and {@code validBytes} the bytes the newest index still references. For a freshly
 * written table {@code validBytes == totalBytes ==} the file size.
 *
 * @param number table file number, never reused
 * @param footerOffset offset of the table's newest footer
 * @param validBytes bytes still referenced by the newest index
 * @param totalBytes bytes of the file, stale appended-over blocks included
 * @param smallest smallest internal key
 * @param largest largest internal key
 * @param entries number of entries
 * @param smallestSequence smallest sequence number of an entry
 * @param largestSequence largest sequence number of an entry
 */
public record FileMetaData(long number, long footerOffset, long validBytes, long totalBytes,
    byte[] smallest, byte[] largest, long entries, long smallestSequence, long largestSequence)
    implements TableFile {

  /** Validates the invariants; violations throw {@link IllegalArgumentException}. */
  public FileMetaData {
    String problem = validate(number, footerOffset, validBytes, totalBytes, smallest, largest,
        entries, smallestSequence, largestSequence);
    if (problem != null) {
      throw new IllegalArgumentException("file " + number + ": " + problem);
    }
  }

  /** Metadata of a freshly written table: valid and total bytes are the file size. */
  public static FileMetaData ofNewTable(long number, long fileSize, long footerOffset, byte[] smallest,
      byte[] largest, long entries, long smallestSequence, long largestSequence) {
    return new FileMetaData(number, footerOffset, fileSize, fileSize, smallest, largest, entries,
        smallestSequence, largestSequence);
  }

  /** The invariant the values break, or null; shared by the constructor and the decoder. */
  static String validate(long number, long footerOffset, long validBytes, long totalBytes,
      byte[] smallest, byte[] largest, long entries, long smallestSequence, long largestSequence) {
    if (number < 0 || footerOffset < 0 || validBytes < 0 || totalBytes < 0 || entries < 0
        || smallestSequence < 0 || largestSequence < 0) {
      return "negative number, offset, size, count or sequence";
    }
    if (validBytes > totalBytes) {
      return "validBytes " + validBytes + " > totalBytes " + totalBytes;
    }
    if (footerOffset > totalBytes) {
      return "footerOffset " + footerOffset + " > totalBytes " + totalBytes;
    }
    if (smallest == null || largest == null || !InternalKey.isValid(smallest) || !InternalKey.isValid(largest)) {
      return "smallest and largest must be valid internal keys";
    }
    if (InternalKeyComparator.INSTANCE.compare(smallest, largest) > 0) {
      return "smallest " + InternalKey.describe(smallest) + " > largest " + InternalKey.describe(largest);
    }
    if (smallestSequence > largestSequence) {
      return "smallestSequence " + smallestSequence + " > largestSequence " + largestSequence;
    }
    return null;
  }

  public byte[] smallestUserKey() {
    return InternalKey.userKey(smallest);
  }

  public byte[] largestUserKey() {
    return InternalKey.userKey(largest);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FileMetaData f && f.number == number && f.footerOffset == footerOffset
        && f.validBytes == validBytes && f.totalBytes == totalBytes
        && Arrays.equals(f.smallest, smallest) && Arrays.equals(f.largest, largest)
        && f.entries == entries && f.smallestSequence == smallestSequence
        && f.largestSequence == largestSequence;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(number) * 31 + Arrays.hashCode(smallest);
  }

  @Override
  public String toString() {
    return "#" + number + "[" + InternalKey.describe(smallest) + " .. " + InternalKey.describe(largest)
        + "] seq " + smallestSequence + ".." + largestSequence + ", " + entries + " entries, "
        + validBytes + "/" + totalBytes + " bytes, footer@" + footerOffset;
  }
}

package dev.cairn.table;

import dev.cairn.CorruptionException;

/**
 * A footer names a format version this reader does not know. It is a {@link CorruptionException}
 * because the reader cannot tell a table written by a newer Cairn from a damaged version field;
 * the message says both.
 */
public final class UnsupportedTableVersionException extends CorruptionException {
  private final long version;

  public UnsupportedTableVersionException(String file, long footerOffset, long version) {
    super(file, footerOffset, "table format version " + version + " is newer than the "
        + Footer.FORMAT_VERSION + " this Cairn reads: written by a newer Cairn, or the footer is damaged");
    this.version = version;
  }

  public long version() {
    return version;
  }
}

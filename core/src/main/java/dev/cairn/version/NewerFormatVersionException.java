package dev.cairn.version;

import dev.cairn.CairnException;

/**
 * The manifest was written by a newer Cairn whose format this one cannot read. Not corruption:
 * the database is fine, this binary is too old for it.
 */
public final class NewerFormatVersionException extends CairnException {
  private final String file;
  private final int version;

  public NewerFormatVersionException(String file, int version) {
    super("database format version " + version + " is newer than this Cairn supports (max "
        + VersionEditCodec.CURRENT_FORMAT_VERSION + ")");
    this.file = file;
    this.version = version;
  }

  /** The manifest that carries the version. */
  public String file() {
    return file;
  }

  public int version() {
    return version;
  }

  public int maxSupported() {
    return VersionEditCodec.CURRENT_FORMAT_VERSION;
  }
}

package dev.cairn;

/**
 * Persistent data failed a checksum or a structural check. Always names the file and the byte
 * offset where the damage was found, so that an operator can locate it; corrupt bytes are never
 * returned to a caller as data.
 */
public class CorruptionException extends CairnException {
  private final String file;
  private final long offset;
  private final String reason;

  public CorruptionException(String file, long offset, String reason) {
    super("corruption in " + file + " at offset " + offset + ": " + reason);
    this.file = file;
    this.offset = offset;
    this.reason = reason;
  }

  public String file() {
    return file;
  }

  public long offset() {
    return offset;
  }

  public String reason() {
    return reason;
  }
}

package dev.cairn;

/**
 * Base of the small set of unchecked exceptions Cairn's public API throws. Checked
 * {@link java.io.IOException}s stay inside the filesystem, WAL and table layers and are wrapped
 * into one of the subclasses at the API boundary.
 */
public class CairnException extends RuntimeException {
  public CairnException(String message) {
    super(message);
  }

  public CairnException(String message, Throwable cause) {
    super(message, cause);
  }
}

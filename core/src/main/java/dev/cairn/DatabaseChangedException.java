package dev.cairn;

/**
 * A read-only view ({@link Cairn#openReadOnly}) met a file that its owner deleted or replaced
 * since the view was opened: the owner compacted or flushed in the meantime. Not corruption: the
 * view's point in time is gone; close it, open a new one and retry.
 */
public final class DatabaseChangedException extends CairnException {
  public DatabaseChangedException(String message, Throwable cause) {
    super(message, cause);
  }
}

package dev.cairn;

/** A write, flush or compaction was asked of a database opened with {@link Cairn#openReadOnly}. */
public final class ReadOnlyException extends CairnException {
  public ReadOnlyException(String message) {
    super(message);
  }
}

package dev.cairn;

import java.util.List;

/**
 * An open found tables that the manifest names missing from the directory, or shorter than the
 * manifest records; the open changed nothing. The first such table is named as the corrupt file,
 * at the offset where its bytes end (0 if it is missing); the message lists every one.
 */
public final class MissingFilesException extends CorruptionException {
  private final List<Long> tableNumbers;

  public MissingFilesException(String firstTable, long firstOffset, String reason, List<Long> tableNumbers) {
    super(firstTable, firstOffset, reason);
    this.tableNumbers = List.copyOf(tableNumbers);
  }

  /** The numbers of the missing or short tables. */
  public List<Long> tableNumbers() {
    return tableNumbers;
  }
}

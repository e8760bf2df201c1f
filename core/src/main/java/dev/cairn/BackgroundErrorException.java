package dev.cairn;

/**
 * A write, fsync or background job failed earlier and left the on-disk state uncertain; the
 * database refuses further writes. The original failure is the cause. Reopen the database to
 * recover from what was durably written.
 */
public class BackgroundErrorException extends CairnException {
  public BackgroundErrorException(Throwable cause) {
    super("database refuses writes after an earlier failure: " + cause, cause);
  }
}

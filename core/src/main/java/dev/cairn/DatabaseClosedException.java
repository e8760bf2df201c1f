package dev.cairn;

/** An operation was attempted on a database, snapshot or iterator that has been closed. */
public class DatabaseClosedException extends CairnException {
  public DatabaseClosedException(String what) {
    super(what + " is closed");
  }
}

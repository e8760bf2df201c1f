package dev.cairn;

import java.io.IOException;

/** An I/O operation failed; the message names the operation and the file. */
public class CairnIOException extends CairnException {
  public CairnIOException(String message, IOException cause) {
    super(message + ": " + cause, cause);
  }
}

package dev.cairn.db.base;

import dev.cairn.BackgroundErrorException;
import dev.cairn.DatabaseClosedException;
import java.nio.file.Path;
import java.util.concurrent.locks.Condition;

/**
 * Whether the engine still accepts work: the {@code closing} flag and the background-error latch.
 * Both are written under the engine mutex (except {@code closing} by a failed open) and read
 * without it by running jobs, hence volatile.
 */
public final class EngineStatus {
  private final Path dir;
  private final Condition backgroundChanged;

  /** Read without the mutex by running compactions (to abandon work), hence volatile. */
  private volatile boolean closing;
  private volatile Throwable backgroundError;

  EngineStatus(Path dir, Condition backgroundChanged) {
    this.dir = dir;
    this.backgroundChanged = backgroundChanged;
  }

  /** Requires: mutex held. The first background failure wins and is kept. */
  public void latch(Throwable t) {
    if (backgroundError == null) {
      backgroundError = t;
    }
    backgroundChanged.signalAll();
  }

  /** Requires: mutex held. */
  public void throwIfUnusable() {
    if (closing) {
      throw new DatabaseClosedException("database " + dir);
    }
    if (backgroundError != null) {
      throw new BackgroundErrorException(backgroundError);
    }
  }

  /** Requires: mutex held (a failed open sets it without: the flag is volatile). */
  public void markClosing() {
    closing = true;
  }

  public boolean isClosing() {
    return closing;
  }

  /** Whether a background failure has latched (read without the mutex: volatile). */
  public boolean hasBackgroundError() {
    return backgroundError != null;
  }
}

package dev.cairn.testkit.host;

import java.time.Duration;

/**
 * A child JVM that did not come up ({@link ChildJvm#awaitReady}): it exited first, or its start
 * deadline passed while it still ran. The launcher's caller turns this into its own message
 * (naming the server and what it waited for) with the tail of the child's log.
 */
public final class ChildNotReadyException extends Exception {
  private final boolean exited;
  private final int exitStatus;

  private ChildNotReadyException(String message, boolean exited, int exitStatus) {
    super(message);
    this.exited = exited;
    this.exitStatus = exitStatus;
  }

  static ChildNotReadyException exited(int exitStatus) {
    return new ChildNotReadyException("the child exited with status " + exitStatus, true, exitStatus);
  }

  static ChildNotReadyException timedOut(Duration startTimeout) {
    return new ChildNotReadyException("the child was not ready within " + startTimeout.toSeconds() + " s", false, -1);
  }

  /** True if the child exited before it was ready; false if it still runs and the deadline passed. */
  public boolean exited() {
    return exited;
  }

  /** The child's exit status if it {@linkplain #exited() exited}, else -1. */
  public int exitStatus() {
    return exitStatus;
  }
}

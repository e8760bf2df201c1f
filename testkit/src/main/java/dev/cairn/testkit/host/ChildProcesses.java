package dev.cairn.testkit.host;

import java.util.concurrent.TimeUnit;

/** Stopping a child server the way its operator would: SIGTERM first, a kill only after a grace period. */
public final class ChildProcesses {
  /** How long a child gets to die after the kill. */
  static final long KILL_WAIT_SECONDS = 10;

  private ChildProcesses() {}

  /**
   * Sends SIGTERM ({@link Process#destroy}) and waits up to {@code graceSeconds}; then kills it
   * and waits up to {@value #KILL_WAIT_SECONDS} s more. A child that is not alive is left alone.
   *
   * @return true if the child exited on SIGTERM (or had exited already), false if it was killed
   */
  public static boolean stop(Process process, long graceSeconds) throws InterruptedException {
    if (!process.isAlive()) {
      return true;
    }
    process.destroy();
    if (process.waitFor(graceSeconds, TimeUnit.SECONDS)) {
      return true;
    }
    process.destroyForcibly();
    process.waitFor(KILL_WAIT_SECONDS, TimeUnit.SECONDS);
    return false;
  }
}

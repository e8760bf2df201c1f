package dev.cairn.util;

import dev.cairn.CairnIOException;
import java.io.IOException;

/**
 * Releases what a database holds, step by step, each step whatever the ones before it threw: a
 * process-wide budget, a shared cache's share or a directory lock released after a failed step
 * is still released, where a chain of statements would stop at the first throw and hold them
 * until the process ends.
 *
 * <pre>{@code
 * Teardown.runAll("closing " + dir,
 *     compactions::stop,
 *     tableCache::close,
 *     () -> DatabaseDirectory.unlockQuietly(lock));
 * }</pre>
 */
public final class Teardown {
  /** One step of a teardown. */
  @FunctionalInterface
  public interface Step {
    void run() throws IOException;
  }

  private Teardown() {}

  /**
   * Runs every step in order, then throws the first failure with the later ones suppressed: an
   * {@link IOException} as a {@link CairnIOException} naming {@code what}, anything else as it was.
   */
  public static void runAll(String what, Step... steps) {
    Throwable first = runEach(null, steps);
    if (first instanceof IOException io) {
      throw new CairnIOException(what, io);
    }
    if (first instanceof RuntimeException r) {
      throw r;
    }
    if (first instanceof Error e) {
      throw e;
    }
  }

  /**
   * Runs every step in order after {@code failure} (the one being reported, as when an open fails
   * and releases what it took), adding each step's failure to it as suppressed; throws nothing.
   */
  public static void runAllAfter(Throwable failure, Step... steps) {
    runEach(failure, steps);
  }

  /** Runs the steps; returns {@code first}, or the first failure if {@code first} is null. */
  private static Throwable runEach(Throwable first, Step... steps) {
    for (Step step : steps) {
      try {
        step.run();
      } catch (IOException | RuntimeException | Error e) {
        if (first == null) {
          first = e;
        } else if (first != e) {
          first.addSuppressed(e);
        }
      }
    }
    return first;
  }
}

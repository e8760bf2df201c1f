package dev.cairn.testkit.host;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A server in a child JVM, the one launcher the adapters' tests ({@code ChildNode}) and the
 * workload runner's host engines ({@code NodeJvm}) share: started from a {@link JavaCommand} in its
 * directory with its output appended to its log ({@link #launch}), waited for until a deadline
 * ({@link #awaitReady}), stopped the way its operator would (SIGTERM, a kill after a grace period:
 * {@link #stop}) or killed as a crash would ({@link #kill}).
 *
 * <p>Every child still running when this JVM exits is killed by a shutdown hook, so that a failed
 * test or an interrupted run leaves no server behind holding its ports and files.
 */
public final class ChildJvm {
  /** How often {@link #awaitReady} asks whether the child is ready. */
  static final long POLL_MILLIS = 250;

  /** The children started and not yet stopped, killed if this JVM exits. */
  private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      for (Process p : RUNNING) {
        p.destroyForcibly();
      }
    }, "child-jvm-reaper"));
  }

  private final Process process;
  private final Path logFile;
  private final Duration startTimeout;
  private final long startNanos;

  private ChildJvm(Process process, Path logFile, Duration startTimeout, long startNanos) {
    this.process = process;
    this.logFile = logFile;
    this.startTimeout = startTimeout;
    this.startNanos = startNanos;
  }

  /**
   * A child to start: {@code command} run in {@code directory}, its stdout and stderr appended to
   * {@code logFile}; {@link #awaitReady} gives up {@code startTimeout} after the start. Set the
   * rest on the launch, then {@link ChildJvmLaunch#start}.
   */
  public static ChildJvmLaunch launch(JavaCommand command, Path directory, Path logFile, Duration startTimeout) {
    return new ChildJvmLaunch(command, directory, logFile, startTimeout);
  }

  /** Starts the process and registers it with the shutdown hook. */
  static ChildJvm start(ProcessBuilder builder, Path logFile, Duration startTimeout) throws IOException {
    long t0 = System.nanoTime();
    Process p = builder.start();
    RUNNING.add(p);
    return new ChildJvm(p, logFile, startTimeout, t0);
  }

  /**
   * Waits until {@code ready} holds, asking every {@value #POLL_MILLIS} ms while the child runs.
   * The deadline is the start's: several waits in a row (a port, then JMX) share it.
   *
   * @throws ChildNotReadyException if the child exits first, or the deadline passes while it
   *     still runs (it is left running: the caller stops or kills it)
   */
  public void awaitReady(BooleanSupplier ready) throws ChildNotReadyException, InterruptedException {
    long deadline = startNanos + startTimeout.toNanos();
    while (true) {
      if (!process.isAlive()) {
        RUNNING.remove(process);
        throw ChildNotReadyException.exited(process.exitValue());
      }
      if (ready.getAsBoolean()) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw ChildNotReadyException.timedOut(startTimeout);
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  /**
   * Stops the child: SIGTERM, and after {@code graceSeconds} a kill ({@link ChildProcesses#stop}).
   * A child that has exited is left alone. If the wait is interrupted the child is killed at once.
   *
   * @return true if the child exited on SIGTERM (or had exited already), false if it was killed
   */
  public boolean stop(long graceSeconds) throws InterruptedException {
    try {
      return ChildProcesses.stop(process, graceSeconds);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      throw e;
    } finally {
      RUNNING.remove(process);
    }
  }

  /** Kills the child at once (SIGKILL), as a crash would, and waits for it to die; nothing is drained. */
  public void kill() throws InterruptedException {
    try {
      if (process.isAlive()) {
        process.destroyForcibly();
        process.waitFor(ChildProcesses.KILL_WAIT_SECONDS, TimeUnit.SECONDS);
      }
    } finally {
      RUNNING.remove(process);
    }
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public long pid() {
    return process.pid();
  }

  /** The child's exit status (143 after a SIGTERM), or -1 while it runs. */
  public int exitStatus() {
    return process.isAlive() ? -1 : process.exitValue();
  }

  /** How long since the child was started. */
  public Duration sinceStart() {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }

  /** The child's stdout and stderr. */
  public Path logFile() {
    return logFile;
  }

  /** The last {@code lines} lines of the log, for failure messages ({@link ChildLog#tail}). */
  public String logTail(int lines) {
    return ChildLog.tail(logFile, lines);
  }
}

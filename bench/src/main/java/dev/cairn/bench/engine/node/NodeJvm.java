package dev.cairn.bench.engine.node;

import dev.cairn.testkit.host.ChildJvm;
import dev.cairn.testkit.host.ChildJvmLaunch;
import dev.cairn.testkit.host.ChildLog;
import dev.cairn.testkit.host.ChildNotReadyException;
import dev.cairn.testkit.host.JavaCommand;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * A server's child JVM as the runner owns it (a Cassandra node, a standalone HBase): started in
 * its node directory with stdout and stderr appended to its log, in a memory cgroup of its own
 * where the machine allows one, waited for until a deadline, its page cache bounded once it is up
 * ({@link NodeMemoryMonitor}), and stopped SIGTERM-then-kill with its directory cleaned down to
 * the files kept for the report ({@link NodeProcesses}). The child's life itself (log, deadline,
 * stop, the kill if the runner exits) is testkit's {@link ChildJvm}, which the adapters' tests
 * share; this class adds the runner's parts: the memory cgroup and its monitor, and JMX.
 *
 * <p><b>Memory.</b> What the group's monitor may bound is the page cache, so everything else the
 * JVM will hold must be resident, or fixed, from the start: the server runs with {@link
 * #boundedMemoryFlags} (heap fixed and touched at start, direct memory capped, the whole code cache
 * committed at start: growing it later is an mmap the kernel charges to the group, and at the limit
 * that fails and the JVM dies, as a Cassandra node did three times 16-29 s into a load). Until
 * {@link #boundPageCache} the group's limit is the heap plus direct memory plus {@value
 * #START_HEADROOM_MIB} MiB to start in; from then on the monitor's.
 */
public final class NodeJvm {
  /** Anonymous memory a server may grow by between two ticks of the memory monitor. */
  public static final long GROWTH_MARGIN_MIB = 16;
  /** The JVM's code cache, committed whole at start. */
  public static final long CODE_CACHE_MIB = 240;
  /** The group's room beyond heap and direct memory while the server starts. */
  public static final long START_HEADROOM_MIB = 512;
  private static final long MIB = 1L << 20;

  private final String name;
  private final String what;
  private final Path logFile;
  private final int startSeconds;
  private final MemoryCgroup cgroup;
  private final String cgroupProblem;
  /** The running child; null once stopped. */
  private ChildJvm child;
  private NodeMemoryMonitor monitor;
  private NodeJmx jmx;

  private NodeJvm(String name, String what, Path logFile, int startSeconds, MemoryCgroup cgroup, String cgroupProblem) {
    this.name = name;
    this.what = what;
    this.logFile = logFile;
    this.startSeconds = startSeconds;
    this.cgroup = cgroup;
    this.cgroupProblem = cgroupProblem;
  }

  /**
   * Starts {@code command} in {@code nodeDir}, its output appended to {@code logFile} after a
   * line naming the command (wrapped to join the memory cgroup, where there is one).
   *
   * @param name the engine's name, for logs and the cgroup's name
   * @param what how messages name the server ("the Cassandra node", "HBase")
   * @param command the java command, with {@link #boundedMemoryFlags} of the same sizes
   * @param heapBytes the heap the command fixes
   * @param maxDirectBytes the direct memory the command caps
   * @param startSeconds how long {@link #awaitStarted} waits for the server to come up, from the start
   * @param unsetEnvironment variables of the runner's environment the child must not inherit
   */
  public static NodeJvm start(String name, String what, JavaCommand command, Path nodeDir, Path logFile,
      long heapBytes, long maxDirectBytes, int startSeconds, Set<String> unsetEnvironment) throws IOException {
    MemoryCgroup cgroup;
    String cgroupProblem = null;
    try {
      cgroup = MemoryCgroup.create("cairn-" + name);
      cgroup.setLimit(heapBytes + maxDirectBytes + START_HEADROOM_MIB * MIB);
    } catch (IOException e) {
      cgroupProblem = e.getMessage();
      cgroup = null;
    }
    NodeJvm jvm = new NodeJvm(name, what, logFile, startSeconds, cgroup, cgroupProblem);
    ChildJvmLaunch launch = ChildJvm.launch(command, nodeDir, logFile, Duration.ofSeconds(startSeconds))
        .logHeader(line -> "===== " + name + ": " + line + "\n")
        .withoutEnvironment(unsetEnvironment);
    if (cgroup != null) {
      launch.wrappedBy(cgroup::wrap);
    }
    try {
      jvm.child = launch.start();
    } catch (IOException | RuntimeException e) {
      if (cgroup != null) {
        cgroup.close();
      }
      throw e;
    }
    return jvm;
  }

  /**
   * Waits until {@code ready} holds, asking four times a second; throws if the server exits first
   * or the start deadline passes, with the tail of its log.
   *
   * @param waitingFor what the runner waits for ("its native port to open")
   */
  public void awaitStarted(String waitingFor, BooleanSupplier ready) throws InterruptedException {
    try {
      child.awaitReady(ready);
    } catch (ChildNotReadyException e) {
      if (e.exited()) {
        throw new IllegalStateException(name + ": " + what + " exited with status " + e.exitStatus()
            + " while the runner waited for " + waitingFor + "; " + logTail(), e);
      }
      throw new IllegalStateException(name + ": " + what + " did not come up within " + startSeconds
          + " s (the runner waited for " + waitingFor + "); " + logTail(), e);
    }
  }

  /**
   * The JVM flags that keep a server's memory other than its page cache fixed from the start (see
   * the class comment); the server's command line carries them.
   */
  public static List<String> boundedMemoryFlags(long heapBytes, long maxDirectBytes) {
    long heapMib = heapBytes / MIB;
    return List.of(
        "-Xms" + heapMib + "m",
        "-Xmx" + heapMib + "m",
        "-XX:+AlwaysPreTouch",
        "-XX:+UseG1GC",
        "-XX:MaxDirectMemorySize=" + maxDirectBytes / MIB + "m",
        "-XX:+ExitOnOutOfMemoryError",
        "-XX:-SegmentedCodeCache",
        "-XX:ReservedCodeCacheSize=" + CODE_CACHE_MIB + "m",
        "-XX:InitialCodeCacheSize=" + CODE_CACHE_MIB + "m");
  }

  /**
   * Connects to the server's JMX port on 127.0.0.1, waiting as {@link #awaitStarted} does while
   * the port is not yet open or not yet answering; the connection is {@link #jmx}'s from then on,
   * and {@link #stop} closes it.
   */
  public NodeJmx connectJmx(int port) throws InterruptedException {
    AtomicReference<NodeJmx> connected = new AtomicReference<>();
    awaitStarted("its JMX port " + port, () -> {
      connected.set(NodeJmx.tryConnect(name, port));
      return connected.get() != null;
    });
    jmx = connected.get();
    return jmx;
  }

  /** The JMX connection, or null before {@link #connectJmx}. */
  public NodeJmx jmx() {
    return jmx;
  }

  /** Starts bounding the page cache to {@code budgetBytes} plus the growth margin; without a cgroup, nothing. */
  public void boundPageCache(long budgetBytes) {
    if (cgroup != null && monitor == null) {
      monitor = new NodeMemoryMonitor(cgroup, budgetBytes + GROWTH_MARGIN_MIB * MIB);
      monitor.start();
    }
  }

  /** For the start-up line: the cgroup's directory, or why there is none. */
  public String cgroupDescription() {
    return cgroup == null ? "no memory cgroup: " + cgroupProblem : "memory cgroup " + cgroup.directory();
  }

  /** Why the server runs without a memory cgroup, or null when it has one. */
  public String cgroupProblem() {
    return cgroupProblem;
  }

  /** For the summary: the monitor's account of the group's memory, or why there is none; null before the bound. */
  public String memorySummary() {
    if (monitor != null) {
      return monitor.summary();
    }
    return cgroupProblem == null ? null : "no memory cgroup: " + cgroupProblem;
  }

  public long pid() {
    return child.pid();
  }

  /** The server process's device reads and writes ({@code /proc/PID/io}). */
  public ChildProcessIo processIo() {
    return ChildProcessIo.of(child.pid());
  }

  /** The last lines of the child's log, for failure messages (also once it has stopped). */
  public String logTail() {
    return ChildLog.tail(logFile, 60);
  }

  /**
   * Closes the JMX connection, stops the monitor, then the child (SIGTERM, after {@code
   * stopSeconds} a kill), removes its cgroup and cleans {@code nodeDir} but for {@code kept}.
   * Idempotent.
   *
   * @return the child's exit status, or -1 if it was not running or would not die
   */
  public int stop(int stopSeconds, Path nodeDir, Set<String> kept) {
    if (jmx != null) {
      jmx.close();
      jmx = null;
    }
    if (monitor != null) {
      monitor.stop();
    }
    int status = child == null ? -1 : NodeProcesses.stop(name, what, child, stopSeconds);
    child = null;
    if (cgroup != null) {
      cgroup.close();
    }
    NodeProcesses.cleanDirectory(name, nodeDir, kept);
    return status;
  }
}

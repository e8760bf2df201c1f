package dev.cairn.cassandra.testing;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import dev.cairn.testkit.host.ChildJvm;
import dev.cairn.testkit.host.ChildLog;
import dev.cairn.testkit.host.ChildNotReadyException;
import dev.cairn.testkit.host.JavaCommand;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * A Cassandra node in a child JVM, started the way an operator starts one: main class {@code
 * org.apache.cassandra.service.CassandraDaemon} in the foreground, a {@code cassandra.yaml} given by
 * {@code -Dcassandra.config}, Cassandra's JDK 17 flags, and Cassandra's jars on the class path plus
 * the jars the caller adds (the plugin jar, as if dropped into Cassandra's {@code lib/}).
 *
 * <p>Unlike {@link EmbeddedNode}, a child node can be {@linkplain #stop stopped} and {@linkplain
 * #start started} again on the same directory (same yaml, data, commit log and ports), so a test
 * can check what survives a restart.
 *
 * <p><b>Class path.</b> Cassandra's jars are taken from this JVM's class path ({@code
 * java.class.path}, which surefire and failsafe set to the test class path) less every entry that
 * holds Cairn classes ({@code dev/cairn/}): this module's {@code target/classes}, {@code
 * target/test-classes} or packaged jar, and {@code cairn-compaction} (its classes directory or
 * jar). So the only Cairn classes the child sees are those of the jars given to {@link #create}.
 * The test-scope libraries (JUnit, the driver) stay on it; Cassandra never loads them.
 *
 * <p><b>Output.</b> The child's stdout and stderr go to {@link #logFile()} ({@code node.log} in
 * the node's directory), appended across restarts; the child logs through a logback
 * configuration written beside its yaml, INFO and above to stdout. {@code -Dcassandra-foreground}
 * keeps Cassandra from closing its stdout and stderr once started.
 *
 * <p><b>Stop.</b> {@link #stop} sends SIGTERM ({@link Process#destroy}); Cassandra's shutdown
 * hook drains the node (flushes memtables), then the JVM exits. After {@value #STOP_SECONDS} s the
 * child is killed.
 *
 * <p><b>Launch.</b> The child's life (its log, the wait for its port, the stop, the shutdown hook
 * that kills any child still running when the test JVM exits) is testkit's {@link ChildJvm}, which
 * the workload runner's host engines share; this class adds what is Cassandra's: the class path,
 * the flags and the yaml, and a restart on the same directory.
 */
public final class ChildNode implements AutoCloseable {
  /** Heap of the child JVM. Cassandra mlockall()s what is committed at start, so -Xms is small. */
  public static final List<String> HEAP =
      List.of("-Xms64m", "-Xmx512m", "-XX:MaxDirectMemorySize=256m");

  static final int START_SECONDS = 120;
  static final int STOP_SECONDS = 60;
  private static final int LOG_TAIL_LINES = 80;
  private static final String MAIN = "org.apache.cassandra.service.CassandraDaemon";

  private final NodeConfig config;
  private final List<Path> extraClassPath;
  private final Path logFile;
  private final Path logbackXml;
  /** The child of the last start, or null before the first. */
  private ChildJvm child;
  private int starts;

  private ChildNode(NodeConfig config, List<Path> extraClassPath) {
    this.config = config;
    this.extraClassPath = List.copyOf(extraClassPath);
    this.logFile = config.directory().resolve("node.log");
    this.logbackXml = config.directory().resolve("logback.xml");
  }

  /**
   * Writes a fresh configuration under {@code target/cassandra/<name>-...} ({@link
   * NodeConfig#create}); the node is not started yet.
   *
   * @param extraClassPath jars (or directories) appended to Cassandra's class path, e.g. the
   *     plugin jar
   */
  public static ChildNode create(String name, List<Path> extraClassPath) {
    return create(NodeConfig.create(name), extraClassPath);
  }

  /** A child node on a configuration made by the caller (a cluster member's); not started yet. */
  public static ChildNode create(NodeConfig config, List<Path> extraClassPath) {
    for (Path p : extraClassPath) {
      if (!Files.exists(p)) {
        throw new IllegalArgumentException("no such class path entry: " + p);
      }
    }
    ChildNode node = new ChildNode(config, extraClassPath);
    try {
      Files.writeString(node.logbackXml, ChildLog.logbackToStdout("dev.cairn.cassandra.testing.ChildNode"),
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return node;
  }

  /**
   * Starts the child JVM and waits until its native port accepts connections.
   *
   * @throws IllegalStateException if it is already running
   * @throws AssertionError if the child exits or its port does not open within {@value
   *     #START_SECONDS} s (the child is killed then); the message ends with the tail of its log
   */
  public synchronized void start() throws IOException, InterruptedException {
    if (isRunning()) {
      throw new IllegalStateException("child node already running: pid " + child.pid());
    }
    JavaCommand command = command();
    int start = ++starts;
    child = ChildJvm.launch(command, config.directory(), logFile, Duration.ofSeconds(START_SECONDS))
        .logHeader(line -> String.format("%n===== ChildNode start %d: %s%n", start, line))
        .withoutEnvironment(Set.of("JAVA_TOOL_OPTIONS"))
        .start();
    try {
      child.awaitReady(config::acceptsClients);
    } catch (ChildNotReadyException e) {
      if (e.exited()) {
        throw new AssertionError("child node exited with status " + e.exitStatus()
            + " before its native port " + port() + " opened; " + logTail(), e);
      }
      kill();
      throw new AssertionError("child node's native port " + port() + " did not open within "
          + START_SECONDS + " s; " + logTail(), e);
    }
  }

  /**
   * Stops the child: SIGTERM, which drains the node, and after {@value #STOP_SECONDS} s a kill.
   * Does nothing if it is not running.
   *
   * @return the child's exit status (143 after a SIGTERM), or -1 if it was not running
   */
  public synchronized int stop() throws InterruptedException {
    if (child == null) {
      return -1;
    }
    child.stop(STOP_SECONDS);
    return child.exitStatus();
  }

  /** Kills the child at once (SIGKILL), as a crash would; nothing is drained. */
  public synchronized void kill() throws InterruptedException {
    if (child != null) {
      child.kill();
    }
  }

  public synchronized boolean isRunning() {
    return child != null && child.isAlive();
  }

  /** The child's process id; it changes with each start. */
  public synchronized long pid() {
    if (child == null) {
      throw new IllegalStateException("never started");
    }
    return child.pid();
  }

  /** The CQL native-protocol port on the node's address; the same across restarts. */
  public int port() {
    return config.nativePort();
  }

  public Path directory() {
    return config.directory();
  }

  public NodeConfig config() {
    return config;
  }

  /** The child's stdout and stderr, all starts appended. */
  public Path logFile() {
    return logFile;
  }

  /** A driver session builder for this node ({@link NodeConfig#sessionBuilder()}). */
  public CqlSessionBuilder sessionBuilder() {
    return config.sessionBuilder();
  }

  /** A new driver session connected to this node; the caller closes it. */
  public CqlSession newSession() {
    return sessionBuilder().build();
  }

  /** Stops the child if it is running ({@link #stop}). */
  @Override
  public void close() throws InterruptedException {
    stop();
  }

  /** The child JVM's command: Cassandra's flags and class path (plus the caller's jars), CassandraDaemon. */
  JavaCommand command() {
    List<String> flags = new ArrayList<>(HEAP);
    flags.addAll(NodeConfig.cassandraJvmFlags());
    flags.add("-XX:+ExitOnOutOfMemoryError");
    flags.add("-Djava.net.preferIPv4Stack=true");
    flags.add("-Dcassandra-foreground=true");
    flags.add("-Dlogback.configurationFile=" + logbackXml.toUri());
    for (Map.Entry<String, String> p : config.systemProperties().entrySet()) {
      flags.add("-D" + p.getKey() + "=" + p.getValue());
    }
    List<Path> cp = new ArrayList<>(cassandraClassPath());
    for (Path p : extraClassPath) {
      cp.add(p.toAbsolutePath());
    }
    return new JavaCommand(JavaCommand.currentJava(), flags, JavaCommand.classPath(cp), MAIN, List.of());
  }

  /**
   * Cassandra's class path: this JVM's class path less every entry holding Cairn classes.
   *
   * @throws IllegalStateException if no {@code cassandra-all} jar is left on it
   */
  public static List<Path> cassandraClassPath() {
    List<Path> out = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (entry.isBlank()) {
        continue;
      }
      Path p = Path.of(entry).toAbsolutePath();
      if (Files.exists(p) && !holdsCairnClasses(p)) {
        out.add(p);
      }
    }
    if (out.stream().noneMatch(p -> p.getFileName().toString().startsWith("cassandra-all-"))) {
      throw new IllegalStateException(
          "no cassandra-all jar on this JVM's class path: " + System.getProperty("java.class.path"));
    }
    return out;
  }

  /** Whether a class path entry (directory or jar) has anything under {@code dev/cairn/}. */
  static boolean holdsCairnClasses(Path entry) {
    if (Files.isDirectory(entry)) {
      return Files.isDirectory(entry.resolve("dev").resolve("cairn"));
    }
    try (JarFile jar = new JarFile(entry.toFile())) {
      for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
        if (e.nextElement().getName().startsWith("dev/cairn/")) {
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      return false; // not a jar: not ours either
    }
  }

  /** The last lines of the child's log, for failure messages. */
  public String logTail() {
    return ChildLog.tail(logFile, LOG_TAIL_LINES);
  }
}

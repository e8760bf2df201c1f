package dev.cairn.cassandra.testing;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import dev.cairn.testkit.host.JavaCommand;
import dev.cairn.testkit.host.LoopbackPorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A cluster of Cassandra nodes in child JVMs ({@link ChildNode}) on 127.0.0.1, 127.0.0.2, ...: one
 * token each, spread evenly over the Murmur3 ring for the first {@value #FOUNDERS} and the next
 * ones between them, the first node the seed, each node's JMX on 127.0.0.1 at its own port. The
 * founders start together once the seed is up; a later node bootstraps alone. {@link #nodetool}
 * runs Cassandra's own {@code nodetool} in a child JVM against a node, as an operator would.
 *
 * <p>Every address is in 127.0.0.0/8, which Linux routes to the loopback interface: nothing
 * leaves the machine.
 */
public final class TestCluster implements AutoCloseable {
  /** The nodes a cluster starts with. */
  public static final int FOUNDERS = 3;

  /** Tokens: the founders a third of the ring apart, a fourth node between the third and the first. */
  private static final List<String> TOKENS = List.of("-9223372036854775808", "-3074457345618258603",
      "3074457345618258602", "6148914691236517204");
  private static final int NODETOOL_SECONDS = 300;
  private static final String NODETOOL = "org.apache.cassandra.tools.NodeTool";

  private final String name;
  private final List<Path> pluginJars;
  private final int nativePort;
  private final int storagePort;
  private final int[] jmxPorts;
  private final Path toolsLogback;
  private final List<ChildNode> nodes = new ArrayList<>();

  private TestCluster(String name, List<Path> pluginJars, int[] ports, Path toolsLogback) {
    this.name = name;
    this.pluginJars = List.copyOf(pluginJars);
    this.nativePort = ports[0];
    this.storagePort = ports[1];
    this.jmxPorts = Arrays.copyOfRange(ports, 2, ports.length);
    this.toolsLogback = toolsLogback;
  }

  /** A cluster with no node started yet; {@code pluginJars} go on every node's class path. */
  public static TestCluster create(String name, List<Path> pluginJars) {
    try {
      Path logback = Files.createTempFile(NodeConfig.workDir(), name + "-nodetool-", ".xml");
      Files.writeString(logback, """
          <configuration>
            <appender name="STDERR" class="ch.qos.logback.core.ConsoleAppender">
              <target>System.err</target>
              <encoder><pattern>%-5level %logger{36} - %msg%n</pattern></encoder>
            </appender>
            <root level="WARN"><appender-ref ref="STDERR"/></root>
          </configuration>
          """, StandardCharsets.UTF_8);
      return new TestCluster(name, pluginJars, LoopbackPorts.free(2 + TOKENS.size()), logback);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Starts the {@value #FOUNDERS} founders and waits for each one's native port: the seed
   * (127.0.0.1) first, then the others together, since founders of an empty cluster join without
   * streaming. A failed start fails the call once every start has ended.
   */
  public List<ChildNode> startFounders() throws IOException, InterruptedException {
    if (!nodes.isEmpty()) {
      throw new IllegalStateException("the founders are started already: " + nodes.size() + " nodes");
    }
    addNode(false).start();
    List<Callable<Void>> starts = new ArrayList<>();
    for (int i = 1; i < FOUNDERS; i++) {
      ChildNode node = addNode(false);
      starts.add(() -> {
        node.start();
        return null;
      });
    }
    ExecutorService pool = Executors.newFixedThreadPool(starts.size());
    try {
      for (Future<Void> start : pool.invokeAll(starts)) {
        try {
          start.get();
        } catch (ExecutionException e) {
          if (e.getCause() instanceof IOException io) {
            throw io;
          }
          if (e.getCause() instanceof Error error) {
            throw error;
          }
          throw new IllegalStateException("a founder's start failed", e.getCause());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    return nodes();
  }

  /**
   * Starts one more node (127.0.0.&lt;n+1&gt;) after the founders and waits for its native port: it
   * bootstraps, streaming its ranges' data from the others.
   */
  public ChildNode startNextNode() throws IOException, InterruptedException {
    if (nodes.size() < FOUNDERS) {
      throw new IllegalStateException("start the founders first: " + nodes.size() + " of " + FOUNDERS + " nodes");
    }
    ChildNode node = addNode(true);
    node.start();
    return node;
  }

  /** Configures the next node and adds it to the cluster, not yet started. */
  private ChildNode addNode(boolean bootstraps) {
    int i = nodes.size();
    if (i >= TOKENS.size()) {
      throw new IllegalStateException("a test cluster has at most " + TOKENS.size() + " nodes");
    }
    NodeConfig config = NodeConfig.createMember(
        new NodeConfig.Member(name + "-" + (i + 1), "127.0.0." + (i + 1), TOKENS.get(i), jmxPorts[i], bootstraps),
        nativePort, storagePort, "127.0.0.1");
    ChildNode node = ChildNode.create(config, pluginJars);
    nodes.add(node);
    return node;
  }

  public List<ChildNode> nodes() {
    return List.copyOf(nodes);
  }

  /**
   * A driver session over every running node, local data center {@value NodeConfig#DATACENTER},
   * with the single-node builder's timeouts; the caller sets each statement's consistency.
   */
  public CqlSession newSession() {
    DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30))
        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10))
        .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(30))
        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(60))
        .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD, 0)
        .withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD, 0)
        .build();
    CqlSessionBuilder builder = CqlSession.builder().withLocalDatacenter(NodeConfig.DATACENTER)
        .withConfigLoader(config);
    for (ChildNode node : nodes) {
      if (node.isRunning()) {
        builder.addContactPoint(node.config().contactPoint());
      }
    }
    return builder.build();
  }

  /**
   * Runs {@code nodetool -h 127.0.0.1 -p <node's JMX port> args...} in a child JVM on Cassandra's
   * class path and returns its output.
   *
   * @throws AssertionError if it exits with another status than 0 or runs past {@value #NODETOOL_SECONDS} s
   */
  public String nodetool(ChildNode node, String... args) throws IOException, InterruptedException {
    List<String> all = new ArrayList<>(List.of("-h", "127.0.0.1", "-p", Integer.toString(node.config().jmxPort())));
    all.addAll(List.of(args));
    List<String> flags = new ArrayList<>(List.of("-Xmx128m", "-XX:ParallelGCThreads=1",
        "-Dlogback.configurationFile=" + toolsLogback.toUri()));
    flags.addAll(NodeConfig.cassandraJvmFlags());
    JavaCommand command = new JavaCommand(JavaCommand.currentJava(), flags,
        JavaCommand.classPath(ChildNode.cassandraClassPath()), NODETOOL, all);
    Path out = Files.createTempFile(node.directory(), "nodetool-", ".out");
    Process p = new ProcessBuilder(command.toList()).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    if (!p.waitFor(NODETOOL_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      throw new AssertionError("nodetool " + String.join(" ", args) + " ran past " + NODETOOL_SECONDS + " s: "
          + Files.readString(out));
    }
    String text = Files.readString(out);
    if (p.exitValue() != 0) {
      throw new AssertionError("nodetool " + String.join(" ", args) + " on " + node.config().address()
          + " exited with " + p.exitValue() + ":\n" + text);
    }
    return text;
  }

  /** An attribute of a node's MBean, over the node's JMX port. */
  public Object attribute(ChildNode node, String objectName, String attribute) throws IOException {
    try (JMXConnector connector = JMXConnectorFactory.connect(jmxUrl(node))) {
      MBeanServerConnection mbeans = connector.getMBeanServerConnection();
      return mbeans.getAttribute(new ObjectName(objectName), attribute);
    } catch (javax.management.JMException e) {
      throw new AssertionError("JMX " + objectName + " " + attribute + " on " + node.config().address(), e);
    }
  }

  /**
   * Flushes a table's memtable on a node through the {@code StorageService} bean's {@code
   * forceKeyspaceFlush}, the operation {@code nodetool flush} calls, without a JVM per call.
   */
  public void flush(ChildNode node, String keyspace, String table) throws IOException {
    try (JMXConnector connector = JMXConnectorFactory.connect(jmxUrl(node))) {
      connector.getMBeanServerConnection().invoke(new ObjectName("org.apache.cassandra.db:type=StorageService"),
          "forceKeyspaceFlush", new Object[] {keyspace, new String[] {table}},
          new String[] {String.class.getName(), String[].class.getName()});
    } catch (javax.management.JMException e) {
      throw new AssertionError("flush of " + keyspace + "." + table + " on " + node.config().address(), e);
    }
  }

  private static JMXServiceURL jmxUrl(ChildNode node) throws IOException {
    return new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + node.config().jmxPort() + "/jmxrmi");
  }

  /**
   * Stops every running node at once (SIGTERM, which drains): a node's drain can wait seconds for
   * its messaging to quiesce, and stopping the nodes together overlaps those waits rather than
   * adding them up. Every node is stopped before a failure is reported.
   */
  @Override
  public void close() throws InterruptedException {
    if (nodes.isEmpty()) {
      return;
    }
    List<Callable<Integer>> stops = new ArrayList<>();
    for (ChildNode node : nodes) {
      stops.add(node::stop);
    }
    ExecutorService pool = Executors.newFixedThreadPool(stops.size());
    try {
      List<Future<Integer>> stopped = pool.invokeAll(stops);
      IllegalStateException failed = null;
      for (int i = 0; i < stopped.size(); i++) {
        try {
          stopped.get(i).get();
        } catch (ExecutionException e) {
          IllegalStateException failure =
              new IllegalStateException("the stop of " + nodes.get(i).config().address() + " failed", e.getCause());
          if (failed == null) {
            failed = failure;
          } else {
            failed.addSuppressed(failure);
          }
        }
      }
      if (failed != null) {
        throw failed;
      }
    } finally {
      pool.shutdownNow();
    }
  }
}

package dev.cairn.cassandra.testing;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.cassandra.db.ColumnFamilyStore;
import org.apache.cassandra.db.compaction.CompactionManager;
import org.apache.cassandra.service.EmbeddedCassandraService;

/**
 * A real Cassandra node running inside the test JVM ({@link EmbeddedCassandraService}), with its
 * native transport on a free port of 127.0.0.1, so that tests drive it through the Apache Cassandra
 * Java driver like any application, and reach its internals ({@link ColumnFamilyStore}, {@link
 * CompactionManager}) for assertions.
 *
 * <p>Typical use: a static field set in the test class's {@code BeforeAll} method with {@code
 * node = EmbeddedNode.start("my-test")}, closed in its {@code AfterAll} method, and sessions from
 * {@link #newSession()} (closed by the test).
 *
 * <p><b>One node per JVM, started once.</b> Cassandra keeps its state in singletons
 * ({@code DatabaseDescriptor}, {@code StorageService}, {@code Schema}, ...) that cannot be
 * reinitialised: a node cannot be started a second time, nor restarted, in the same JVM. {@link
 * #start} refuses a second call; {@link #close} only stops the client transport, and the rest of the
 * node goes away with the JVM (Cassandra's shutdown hook drains it). The module's surefire forks a
 * JVM per test class, so each test class may start one node. A test that needs a restart uses
 * {@link ChildNode}.
 *
 * <p>The JVM must run with Cassandra's JDK 17 flags (the module's pom puts them in surefire's
 * {@code argLine}). Cassandra installs its own uncaught-exception handler, which halts the JVM on
 * an {@code OutOfMemoryError} among others.
 */
public final class EmbeddedNode implements AutoCloseable {
  private static EmbeddedNode started;

  private final NodeConfig config;
  private final EmbeddedCassandraService service;
  private final Duration startTime;
  private boolean closed;

  private EmbeddedNode(NodeConfig config, EmbeddedCassandraService service, Duration startTime) {
    this.config = config;
    this.service = service;
    this.startTime = startTime;
  }

  /**
   * Writes a fresh configuration under {@code target/cassandra/<name>-...} ({@link
   * NodeConfig#create}) and starts a node on it; returns once the node accepts CQL connections.
   *
   * @throws IllegalStateException if a node was already started in this JVM
   */
  public static synchronized EmbeddedNode start(String name) {
    if (started != null) {
      throw new IllegalStateException(
          "a Cassandra node was already started in this JVM (" + started.directory()
              + "); Cassandra cannot start twice in one JVM");
    }
    NodeConfig config = NodeConfig.create(name);
    for (Map.Entry<String, String> p : config.systemProperties().entrySet()) {
      System.setProperty(p.getKey(), p.getValue());
    }
    long t0 = System.nanoTime();
    EmbeddedCassandraService service = new EmbeddedCassandraService();
    try {
      service.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    started = new EmbeddedNode(config, service, Duration.ofNanos(System.nanoTime() - t0));
    return started;
  }

  /** The node's directory: its {@code cassandra.yaml}, data, commit log, caches, hints. */
  public Path directory() {
    return config.directory();
  }

  public NodeConfig config() {
    return config;
  }

  /** The CQL native-protocol port on 127.0.0.1. */
  public int port() {
    return config.nativePort();
  }

  /** How long {@link #start} took, from {@code EmbeddedCassandraService.start()} to its return. */
  public Duration startTime() {
    return startTime;
  }

  /** A driver session builder for this node ({@link NodeConfig#sessionBuilder()}). */
  public CqlSessionBuilder sessionBuilder() {
    return config.sessionBuilder();
  }

  /** A new driver session connected to this node; the caller closes it. */
  public CqlSession newSession() {
    return sessionBuilder().build();
  }

  /**
   * The live table, for assertions on its SSTables, metrics and compaction strategy.
   *
   * @throws IllegalArgumentException if there is no such table
   */
  public ColumnFamilyStore table(String keyspace, String table) {
    ColumnFamilyStore cfs = ColumnFamilyStore.getIfExists(keyspace, table);
    if (cfs == null) {
      throw new IllegalArgumentException("no table " + keyspace + "." + table);
    }
    return cfs;
  }

  /** Flushes the table's memtable to a new SSTable and waits for it (like {@code nodetool flush}). */
  public void flush(String keyspace, String table) {
    table(keyspace, table).forceBlockingFlush(ColumnFamilyStore.FlushReason.USER_FORCED);
  }

  /**
   * Waits until the table has no compaction running and its strategies expect none: the
   * strategies' estimated remaining tasks are 0, no SSTable of the table is compacting, and this
   * held on three polls 200 ms apart. The node is asked for background compactions between polls,
   * so a task declined earlier is offered again.
   *
   * @throws AssertionError if that does not happen within {@code timeout}
   */
  public void awaitCompactions(String keyspace, String table, Duration timeout)
      throws InterruptedException {
    ColumnFamilyStore cfs = table(keyspace, table);
    long deadline = System.nanoTime() + timeout.toNanos();
    int quiet = 0;
    while (quiet < 3) {
      boolean idle =
          cfs.getCompactionStrategyManager().getEstimatedRemainingTasks() == 0
              && cfs.getTracker().getCompacting().isEmpty();
      quiet = idle ? quiet + 1 : 0;
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "compactions of " + keyspace + "." + table + " did not settle within " + timeout
                + ": estimated remaining "
                + cfs.getCompactionStrategyManager().getEstimatedRemainingTasks()
                + ", compacting " + cfs.getTracker().getCompacting().size()
                + ", pending overall " + CompactionManager.instance.getPendingTasks());
      }
      if (!idle) {
        CompactionManager.instance.submitBackground(cfs);
      }
      Thread.sleep(200);
    }
  }

  /**
   * Stops the node's client transport (the driver's connections close). The rest of the node stops
   * with the JVM; this node cannot be started again in this JVM.
   */
  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      service.stop();
    }
  }
}

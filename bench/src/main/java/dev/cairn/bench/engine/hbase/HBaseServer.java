package dev.cairn.bench.engine.hbase;

import dev.cairn.bench.engine.node.MemoryCgroup;
import dev.cairn.bench.engine.node.NodeJmx;
import dev.cairn.bench.engine.node.NodeJvm;
import dev.cairn.bench.engine.node.NodeMemoryMonitor;
import dev.cairn.bench.engine.node.NodeSummary;
import dev.cairn.bench.run.DirectorySize;
import dev.cairn.testkit.host.ChildLog;
import dev.cairn.testkit.host.LoopbackPorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * One standalone HBase 2.6.1 in a child JVM started by the runner: {@code HMaster start} with
 * {@code hbase.cluster.distributed=false} (ZooKeeper, the master and one region server in one
 * process) on {@link HBaseInstall}'s jars plus the plugin jar, with HBase's JDK 17 flags, an
 * {@code hbase-site.xml} written for 127.0.0.1 ({@link HBaseLaunch}) and, where the machine allows,
 * a memory cgroup of its own that bounds its page cache ({@link MemoryCgroup}, {@link
 * NodeMemoryMonitor}: the same as the Cassandra node's). The runner talks to it through HBase's
 * client ({@link HBaseClient}) and reads its metrics over JMX on 127.0.0.1.
 *
 * <p><b>Files.</b> {@code hbase.rootdir} is the run's database directory (what the runner sizes
 * for space amplification); the configuration, WALs, ZooKeeper's data and temporary files go to
 * {@code <run dir>-node/} beside it. {@link #stop} deletes that directory but for {@code node.log}
 * (the child's stdout and stderr), {@code client.log} and {@code node-summary.txt}.
 */
final class HBaseServer implements AutoCloseable {
  static final int START_SECONDS = 180;
  static final int STOP_SECONDS = 60;
  static final String SERVER_BEAN = "Hadoop:service=HBase,name=RegionServer,sub=Server";
  static final String TABLES_BEAN = "Hadoop:service=HBase,name=RegionServer,sub=Tables";
  static final String WAL_BEAN = "Hadoop:service=HBase,name=RegionServer,sub=WAL";
  /**
   * What the server is started with.
   *
   * @param heapBytes heap (-Xms and -Xmx)
   * @param blockCacheBytes the on-heap LRU block cache (0 = off)
   * @param memstoreFlushBytes {@code hbase.hregion.memstore.flush.size} (also the table's)
   * @param maxDirectBytes {@code -XX:MaxDirectMemorySize} (RPC buffers, netty)
   * @param bloomErrorRate {@code io.storefile.bloom.error.rate}, the Bloom filters' false-positive rate
   * @param pageCacheBudgetBytes page cache allowed beyond the JVM's memory (its cgroup)
   * @param compression the codec a family may ask for, set up in {@code hbase-site.xml} ({@link HBaseCodecs})
   * @param scaledArchiveCleaning whether archived files are deleted on the runner's scaled periods
   *     (seconds, so that the database's size follows its live files) rather than HBase's (minutes).
   *     A server whose regions close and reopen wants HBase's: its archiver creates the archive's
   *     directories while the cleaner deletes empty ones, and on a local file system a region that
   *     loses that race on close aborts the region server (HBASE-7643 is the same race on rename).
   */
  record Settings(long heapBytes, long blockCacheBytes, long memstoreFlushBytes, long maxDirectBytes,
      double bloomErrorRate, long pageCacheBudgetBytes, dev.cairn.config.Compression compression,
      boolean scaledArchiveCleaning) {}

  private final String name;
  private final HBaseLaunch launch;
  private NodeJvm jvm;

  private HBaseServer(String name, HBaseInstall install, Path dataDir, Settings settings) throws IOException {
    this.name = name;
    Path data = dataDir.toAbsolutePath();
    int[] ports = LoopbackPorts.free(4);
    this.launch = new HBaseLaunch(install, settings, data, data.resolveSibling(data.getFileName() + "-node"),
        ports[0], ports[1], ports[2], ports[3], Path.of(System.getProperty("java.home")));
  }

  /**
   * Writes the server's configuration, starts it and waits until its region server publishes
   * metrics over JMX (the master may still be initializing: the client's retries wait for it).
   *
   * @param dataDir the run's (empty) database directory: {@code hbase.rootdir}
   * @throws IllegalStateException if the child exits or does not come up in time (with the tail
   *     of its log)
   */
  static HBaseServer start(String name, HBaseInstall install, Path dataDir, Settings settings) {
    requireJdk17();
    HBaseServer server;
    try {
      server = new HBaseServer(name, install, dataDir, settings);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      server.launch();
      return server;
    } catch (IOException | RuntimeException | InterruptedException e) {
      server.close();
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw e instanceof IllegalStateException ise ? ise
          : new IllegalStateException(name + ": HBase did not start: " + e, e);
    }
  }

  /**
   * The server runs on the runner's JDK, and the runner's client needs Hadoop's security classes
   * as well: both on 17 (Hadoop 3.3.5's UserGroupInformation fails on later JDKs).
   */
  static void requireJdk17() {
    int feature = Runtime.version().feature();
    if (feature != 17) {
      throw new IllegalStateException("the HBase engines need JDK 17 for the runner and its HBase server (this is "
          + feature + ": Hadoop's UserGroupInformation fails on later JDKs); run the runner with a JDK 17 java");
    }
  }

  private void launch() throws IOException, InterruptedException {
    DirectorySize.deleteRecursively(launch.nodeDir());
    Files.createDirectories(launch.nodeDir());
    if (isEmptyOrMissing(launch.dataDir())) {
      // A new database: no WALs or ZooKeeper state of an earlier one may be replayed into it.
      DirectorySize.deleteRecursively(launch.stateDir());
    }
    Files.createDirectories(launch.dataDir());
    for (Map.Entry<Path, String> f : launch.configurationFiles().entrySet()) {
      Files.createDirectories(f.getKey().getParent());
      Files.writeString(f.getKey(), f.getValue(), StandardCharsets.UTF_8);
    }
    jvm = NodeJvm.start(name, "HBase", launch.javaCommand(), launch.nodeDir(), logFile(),
        launch.settings().heapBytes(), launch.settings().maxDirectBytes(), START_SECONDS,
        Set.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "HBASE_CONF_DIR", "HADOOP_CONF_DIR"));
    NodeJmx jmx = jvm.connectJmx(launch.jmxPort());
    jvm.awaitStarted("its region server's metrics and RPC port",
        () -> jmx.isRegistered(SERVER_BEAN) && LoopbackPorts.accepts(launch.regionServerPort()));
  }

  private static boolean isEmptyOrMissing(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return true;
    }
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.findAny().isEmpty();
    }
  }

  /** Deletes the database's WALs and ZooKeeper state: the database is not going to be opened again. */
  void deleteState() {
    try {
      DirectorySize.deleteRecursively(launch.stateDir());
    } catch (IOException e) {
      System.err.printf("[%s] could not delete %s: %s%n", name, launch.stateDir(), e);
    }
  }

  /** Starts bounding the page cache (as the Cassandra node's). */
  void boundPageCache() {
    jvm.boundPageCache(launch.settings().pageCacheBudgetBytes());
  }

  /** The child JVM: its pid, cgroup, memory and device I/O. */
  NodeJvm jvm() {
    return jvm;
  }

  /** The server's metrics over JMX. */
  NodeJmx jmx() {
    return jvm.jmx();
  }

  HBaseLaunch launchSettings() {
    return launch;
  }

  Path directory() {
    return launch.nodeDir();
  }

  Path logFile() {
    return launch.logFile();
  }

  // ---- stop

  /**
   * Stops the server: SIGTERM (HBase's shutdown hook stops the region server, the master and
   * ZooKeeper), after {@value #STOP_SECONDS} s a kill; removes its cgroup and the node directory
   * but for its logs and summary. Idempotent.
   *
   * @return the child's exit status, or -1 if it was not running or would not die
   */
  int stop() {
    return jvm == null ? -1 : jvm.stop(STOP_SECONDS, launch.nodeDir(), KEPT);
  }

  @Override
  public void close() {
    stop();
  }

  private static final Set<String> KEPT = Set.of("node.log", "client.log", NodeSummary.FILE_NAME);

  /** The last lines of the child's log, for failure messages. */
  String logTail() {
    return ChildLog.tail(logFile(), 60);
  }
}

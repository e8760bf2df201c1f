package dev.cairn.bench.engine.cassandra;

import dev.cairn.bench.engine.EngineMetrics;
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
import java.util.Set;

/**
 * One Cassandra 5.0.9 node in a child JVM started by the runner: {@code CassandraDaemon} in the
 * foreground on {@link CassandraInstall}'s jars plus the plugin jar, with Cassandra's JDK 17 flags,
 * a {@code cassandra.yaml} written for one node on 127.0.0.1 (free native, storage and JMX ports),
 * and, where the machine allows, a memory cgroup of its own that bounds its page cache
 * ({@link MemoryCgroup}). The runner talks to it over the native protocol (the engine's driver
 * session) and over JMX on 127.0.0.1 (flushes and metrics).
 *
 * <p><b>Files.</b> The table's SSTables go to the run's database directory (what the runner sizes
 * for space amplification); everything else of the node (yaml, commit log, the local system
 * keyspaces, saved caches, hints) to {@code <run dir>-node/} beside it. {@link #stop} deletes that
 * directory but for {@code node.log} (the child's stdout and stderr) and {@code node-summary.txt}.
 *
 * <p><b>Memory.</b> The heap is fixed and touched at start ({@code -Xms = -Xmx},
 * {@code -XX:+AlwaysPreTouch}), so that it is resident from the first second. Once the node is up
 * a monitor thread sets the group's limit four times a second to what the group holds that the
 * kernel cannot reclaim (anonymous and locked memory, kernel memory, dirty pages) plus
 * {@value NodeJvm#GROWTH_MARGIN_MIB} MiB for growth between two ticks plus the page-cache budget ({@link
 * NodeMemoryMonitor}): the clean page cache (mapped index files included) then holds at most about
 * budget + margin, whatever the JVM grows to. The code cache is committed at start and the commit
 * log written by direct I/O, so that neither grows the group's unreclaimable memory later.
 */
final class CassandraNode implements AutoCloseable {
  static final String MAIN = "org.apache.cassandra.service.CassandraDaemon";
  /** Cassandra keeps this much of {@code file_cache_size} for its buffer pool ({@code ChunkCache.RESERVED_POOL_SPACE_IN_MiB}). */
  static final long CHUNK_CACHE_RESERVE_MIB = 32;
  static final long NETWORKING_CACHE_MIB = 16;
  static final int START_SECONDS = 180;
  static final int STOP_SECONDS = 60;
  private static final long MIB = 1L << 20;
  /**
   * What the node is started with.
   *
   * @param heapBytes heap (-Xms and -Xmx)
   * @param chunkCacheBytes chunk cache (0 = off); {@code file_cache_size} is this plus the 32 MiB reserve
   * @param memtablePoolMib {@code memtable_offheap_space}, where memtables live
   * @param memtableCleanupThreshold {@code memtable_cleanup_threshold}: a flush starts at this share of it
   * @param columnIndexKib {@code column_index_size}: row-index granularity within a partition
   * @param concurrentCompactors {@code concurrent_compactors}
   * @param compactionThroughputMib {@code compaction_throughput} in MiB/s (0 = unthrottled)
   * @param pageCacheBudgetBytes page cache allowed beyond the JVM's memory (its cgroup)
   */
  record Settings(
      long heapBytes,
      long chunkCacheBytes,
      int memtablePoolMib,
      double memtableCleanupThreshold,
      int columnIndexKib,
      int concurrentCompactors,
      int compactionThroughputMib,
      long pageCacheBudgetBytes) {

    /** The chunk cache in whole MiB (nearest). */
    long chunkCacheMib() {
      return Math.round((double) chunkCacheBytes / MIB);
    }

    long fileCacheMib() {
      return chunkCacheMib() + CHUNK_CACHE_RESERVE_MIB;
    }

    long maxDirectBytes() {
      return (fileCacheMib() + NETWORKING_CACHE_MIB + 128) * MIB;
    }
  }

  private final String name;
  /** Where the node's files go, its ports, its yaml and its command line. */
  private final NodeLaunch launch;
  private NodeJvm jvm;

  private CassandraNode(String name, CassandraInstall install, Path dataDir, Settings settings) throws IOException {
    this.name = name;
    Path data = dataDir.toAbsolutePath();
    int[] ports = LoopbackPorts.free(3);
    this.launch = new NodeLaunch(install, settings, data, data.resolveSibling(data.getFileName() + "-node"),
        ports[0], ports[1], ports[2]);
  }

  /**
   * Writes the node's configuration, starts it and waits until its native port and JMX answer.
   *
   * @param dataDir the run's (empty) database directory: the table's SSTables go here
   * @throws IllegalStateException if the child exits or does not open its port in time (with the
   *     tail of its log)
   */
  static CassandraNode start(String name, CassandraInstall install, Path dataDir, Settings settings) {
    CassandraNode node;
    try {
      node = new CassandraNode(name, install, dataDir, settings);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      node.launch();
      return node;
    } catch (IOException | RuntimeException | InterruptedException e) {
      node.close();
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw e instanceof IllegalStateException ise ? ise
          : new IllegalStateException(name + ": the Cassandra node did not start: " + e, e);
    }
  }

  private void launch() throws IOException, InterruptedException {
    DirectorySize.deleteRecursively(launch.nodeDir());
    Files.createDirectories(launch.nodeDir());
    Files.createDirectories(launch.dataDir());
    Files.writeString(launch.yamlFile(), launch.yamlText(), StandardCharsets.UTF_8);
    Files.writeString(launch.logbackFile(), ChildLog.logbackToStdout("the workload runner"), StandardCharsets.UTF_8);

    jvm = NodeJvm.start(name, "the Cassandra node", launch.javaCommand(), launch.nodeDir(), logFile(),
        launch.settings().heapBytes(), launch.settings().maxDirectBytes(), START_SECONDS, Set.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS"));
    jvm.awaitStarted("its native port to open", () -> LoopbackPorts.accepts(launch.nativePort()));
    jvm.connectJmx(launch.jmxPort());
  }

  /** Starts bounding the page cache (see the class comment). */
  void boundPageCache() {
    jvm.boundPageCache(launch.settings().pageCacheBudgetBytes());
  }

  /** The child JVM: its pid, cgroup, memory and device I/O. */
  NodeJvm jvm() {
    return jvm;
  }

  /** The node's metrics and operations over JMX. */
  NodeJmx jmx() {
    return jvm.jmx();
  }

  int nativePort() {
    return launch.nativePort();
  }

  Path directory() {
    return launch.nodeDir();
  }

  Path logFile() {
    return launch.nodeDir().resolve("node.log");
  }

  /** Writes the table's memtable out and waits ({@code StorageService.forceKeyspaceFlush}). */
  void flush(String keyspace, String table) {
    jvm.jmx().invoke("org.apache.cassandra.db:type=StorageService", "forceKeyspaceFlush",
        new Object[] {keyspace, new String[] {table}},
        new String[] {String.class.getName(), String[].class.getName()});
  }

  /**
   * Bytes the node's process caused to be written to storage ({@code /proc/PID/io}: {@code
   * write_bytes - cancelled_write_bytes}): commit log, flushes, compactions, system tables, its
   * log. {@link EngineMetrics#UNAVAILABLE} if not readable.
   */
  long processBytesWritten() {
    return jvm.processIo().bytesWritten();
  }

  // ---- stop

  /**
   * Stops the node: SIGTERM (Cassandra drains and exits), after {@value #STOP_SECONDS} s a kill;
   * removes its cgroup and the node directory but for its log and summary. Idempotent.
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

  /** What the node directory keeps after a stop: the log and the summary. */
  private static final Set<String> KEPT = Set.of("node.log", NodeSummary.FILE_NAME);

  /** The last lines of the child's log, for failure messages. */
  String logTail() {
    return ChildLog.tail(logFile(), 60);
  }

}

package dev.cairn.cassandra.testing;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import dev.cairn.testkit.host.LoopbackPorts;
import dev.cairn.testkit.host.YamlText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The configuration of one test node, shared by {@link EmbeddedNode} and {@link ChildNode}: a
 * directory that holds everything the node writes, a {@code cassandra.yaml} in it, the ports, and
 * the system properties a test node needs. A single node ({@link #create}) is its own seed on
 * 127.0.0.1; a cluster's members ({@link #createMember}, {@link TestCluster}) each have their own
 * address in 127.0.0.0/8 and share the ports.
 *
 * <p>Ports are found free on 127.0.0.1 when the configuration is made (a build in another
 * checkout may run a node at the same time, so no fixed port is safe); the configuration is
 * written once and kept, so a {@link ChildNode} restarted on it listens on the same ports.
 */
public final class NodeConfig {
  /** The data center {@code SimpleSnitch} reports for every node; the driver's local DC. */
  public static final String DATACENTER = "datacenter1";

  private final Path dir;
  private final String address;
  private final int nativePort;
  private final int storagePort;
  private final int jmxPort;
  private final String initialToken;
  private final String seed;
  private final boolean bootstraps;

  private NodeConfig(Path dir, String address, int nativePort, int storagePort, int jmxPort,
      String initialToken, String seed, boolean bootstraps) {
    this.dir = dir;
    this.address = address;
    this.nativePort = nativePort;
    this.storagePort = storagePort;
    this.jmxPort = jmxPort;
    this.initialToken = initialToken;
    this.seed = seed;
    this.bootstraps = bootstraps;
  }

  /**
   * One member of a test cluster: its own loopback address, the cluster's ports, its own JMX port.
   * A member that {@code bootstraps} streams its ranges' data from the others as it joins, so it
   * must join alone; a founder of an empty cluster has nothing to stream and joins at once
   * ({@code auto_bootstrap: false}), beside the other founders.
   */
  public record Member(String name, String address, String initialToken, int jmxPort, boolean bootstraps) {
    public Member {
      if (!address.startsWith("127.")) {
        throw new IllegalArgumentException("a test node listens on 127.0.0.0/8 only, not " + address);
      }
    }
  }

  /**
   * Makes a fresh directory {@code <workDir>/<name>-<timestamp>} and writes {@code cassandra.yaml}
   * into it. {@code workDir} is the system property {@code cairn.cassandra.workDir} (set by the
   * module's pom to {@code target/cassandra}), else {@code target/cassandra}.
   */
  public static NodeConfig create(String name) {
    try {
      Path dir = freshDirectory(name);
      int[] ports = LoopbackPorts.free(2);
      NodeConfig config = new NodeConfig(dir, "127.0.0.1", ports[0], ports[1], 0, "0", null, false);
      config.writeYaml();
      return config;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A cluster member's configuration, in a fresh directory as {@link #create}: every member binds
   * the cluster's native and storage ports on its own address, the seed is {@code seedAddress},
   * and the member's JMX listens on 127.0.0.1 at its own port (for nodetool).
   */
  public static NodeConfig createMember(Member member, int nativePort, int storagePort, String seedAddress) {
    try {
      Path dir = freshDirectory(member.name());
      NodeConfig config = new NodeConfig(dir, member.address(), nativePort, storagePort, member.jmxPort(),
          member.initialToken(), seedAddress, member.bootstraps());
      config.writeYaml();
      return config;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A new directory {@code <workDir>/<name>-<timestamp>-<random>}. */
  private static Path freshDirectory(String name) throws IOException {
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS"));
    return Files.createTempDirectory(workDir(), name + "-" + stamp + "-");
  }

  /**
   * Where test nodes and their tools keep their files, created if missing: the system property
   * {@code cairn.cassandra.workDir} (the module's pom sets {@code target/cassandra}), else
   * {@code target/cassandra}; absolute.
   */
  static Path workDir() throws IOException {
    Path workDir = Path.of(System.getProperty("cairn.cassandra.workDir", "target/cassandra")).toAbsolutePath();
    Files.createDirectories(workDir);
    return workDir;
  }

  /** The node's loopback address. */
  public String address() {
    return address;
  }

  /** The node's JMX port on 127.0.0.1, or 0 if it has none. */
  public int jmxPort() {
    return jmxPort;
  }

  /** Whether the node's native port accepts connections (within 500 ms). */
  public boolean acceptsClients() {
    try (Socket s = new Socket()) {
      s.connect(contactPoint(), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  public Path directory() {
    return dir;
  }

  public Path yaml() {
    return dir.resolve("cassandra.yaml");
  }

  /** The CQL native-protocol port on the node's address. */
  public int nativePort() {
    return nativePort;
  }

  /** The internode (gossip, messaging) port on the node's address. */
  public int storagePort() {
    return storagePort;
  }

  public InetSocketAddress contactPoint() {
    try {
      return new InetSocketAddress(InetAddress.getByName(address), nativePort);
    } catch (UnknownHostException e) {
      throw new IllegalStateException(address, e);
    }
  }

  /**
   * A driver session builder for this node: contact point 127.0.0.1 and the native port, local data
   * center {@value #DATACENTER}, and timeouts long enough for schema changes on a busy 2-core
   * machine (the driver's 2 s default is not).
   */
  public CqlSessionBuilder sessionBuilder() {
    DriverConfigLoader config =
        DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30))
            .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
            .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10))
            .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(30))
            .withDuration(
                DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
            // Close at once (the default waits a 2 s quiet period per event-loop group).
            .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD, 0)
            .withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD, 0)
            .build();
    return CqlSession.builder()
        .addContactPoint(contactPoint())
        .withLocalDatacenter(DATACENTER)
        .withConfigLoader(config);
  }

  /**
   * The system properties a test node runs with: where its config is, where its default storage
   * is, no waiting for gossip or a ring to settle, a short wait for a shutdown to be announced (none
   * for a single node, which has no peers), and the memtable's per-row heap overhead given rather
   * than estimated at start.
   */
  public Map<String, String> systemProperties() {
    Map<String, String> props = new LinkedHashMap<>();
    props.put("cassandra.config", yaml().toUri().toString());
    props.put("cassandra.storagedir", dir.toString());
    props.put("cassandra.skip_wait_for_gossip_to_settle", "0");
    props.put("cassandra.ring_delay_ms", "1000");
    props.put("cassandra.superuser_setup_delay_ms", "0");
    // Gossip's shutdown message goes straight to each live peer; on loopback it arrives within
    // milliseconds, so the default 2 s wait only slows every stop.
    props.put("cassandra.shutdown_announce_in_ms", seed == null ? "0" : "200");
    // Without it every start spends 4-7 s of CPU (C1 only, two cores) estimating the overhead by
    // filling a memtable with 100,000 rows. 181 bytes is what that estimate gives for Cassandra
    // 5.0.9 on JDK 17 with compressed oops; it only sets the memtable's heap accounting (when a
    // full memtable flushes), and is to be measured again when the pinned Cassandra changes.
    props.put("cassandra.memtable.row_overhead_size", "181");
    if (jmxPort > 0) {
      props.put("cassandra.jmx.local.port", Integer.toString(jmxPort));
      props.put("java.rmi.server.hostname", "127.0.0.1");
    }
    return props;
  }

  /**
   * The JVM flags Cassandra needs on JDK 17 (the JPMS section of its {@code jvm17-server.options}),
   * and the tests' JIT setting ({@code test.jit} in the parent pom), as the module's pom hands
   * them over in {@code cairn.cassandra.jvmArgs}.
   */
  public static List<String> cassandraJvmFlags() {
    String flags = System.getProperty("cairn.cassandra.jvmArgs");
    if (flags == null || flags.isBlank()) {
      throw new IllegalStateException(
          "system property cairn.cassandra.jvmArgs is not set: run through Maven"
              + " (cassandra-adapter/pom.xml sets it from cassandra.jvm.jpms)");
    }
    return new ArrayList<>(Arrays.asList(flags.trim().split("\\s+")));
  }

  private void writeYaml() throws IOException {
    String d = dir.toAbsolutePath().toString();
    String yaml =
        String.join(
            "\n",
            "# Written by dev.cairn.cassandra.testing.NodeConfig: a test node on " + address + ".",
            "cluster_name: cairn-test",
            "num_tokens: 1",
            "initial_token: " + initialToken,
            "auto_bootstrap: " + bootstraps,
            "partitioner: org.apache.cassandra.dht.Murmur3Partitioner",
            "endpoint_snitch: SimpleSnitch",
            "dynamic_snitch: false",
            "seed_provider:",
            "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider",
            "    parameters:",
            "      - seeds: \"" + (seed == null ? address : seed) + ":" + storagePort + "\"",
            "listen_address: " + address,
            "rpc_address: " + address,
            "storage_port: " + storagePort,
            "start_native_transport: true",
            "native_transport_port: " + nativePort,
            "data_file_directories:",
            "  - " + YamlText.quoted(d + "/data"),
            "commitlog_directory: " + YamlText.quoted(d + "/commitlog"),
            "saved_caches_directory: " + YamlText.quoted(d + "/saved_caches"),
            "hints_directory: " + YamlText.quoted(d + "/hints"),
            "cdc_raw_directory: " + YamlText.quoted(d + "/cdc_raw"),
            "commitlog_sync: periodic",
            "commitlog_sync_period: 10000ms",
            "commitlog_segment_size: 8MiB",
            "concurrent_compactors: 1",
            "auto_snapshot: false",
            // The chunk cache, which a strategy observes (off by default in 5.0). Cassandra keeps
            // 32 MiB of file_cache_size for its buffer pool and caches chunks in the rest
            // (ChunkCache.RESERVED_POOL_SPACE_IN_MiB): 40 MiB is an 8 MiB chunk cache, small
            // enough for a test's few MiB of data to miss it.
            "file_cache_enabled: true",
            "file_cache_size: 40MiB",
            "memtable_heap_space: 64MiB",
            "memtable_offheap_space: 64MiB",
            "key_cache_size: 8MiB",
            "counter_cache_size: 0MiB",
            "prepared_statements_cache_size: 4MiB",
            "networking_cache_size: 16MiB",
            "index_summary_capacity: 8MiB",
            "concurrent_reads: 8",
            "concurrent_writes: 8",
            "concurrent_counter_writes: 4",
            "native_transport_max_threads: 16",
            "");
    Files.writeString(yaml(), yaml, StandardCharsets.UTF_8);
  }
}

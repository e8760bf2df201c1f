package dev.cairn.bench.engine.cassandra;

import dev.cairn.bench.engine.node.NodeJvm;
import dev.cairn.testkit.host.JavaCommand;
import dev.cairn.testkit.host.YamlText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a runner's Cassandra node is started with: where its files go, its loopback ports, its
 * {@code cassandra.yaml} and its JVM command line (before the cgroup wrapper). Pure: writes and
 * starts nothing ({@link CassandraNode} does).
 *
 * @param dataDir the run's database directory: the table's SSTables go here
 * @param nodeDir everything else of the node (yaml, commit log, system keyspaces, log)
 */
record NodeLaunch(CassandraInstall install, CassandraNode.Settings settings, Path dataDir, Path nodeDir,
    int nativePort, int storagePort, int jmxPort) {

  Path yamlFile() {
    return nodeDir.resolve("cassandra.yaml");
  }

  Path logbackFile() {
    return nodeDir.resolve("logback.xml");
  }


  /** The child's command (the cgroup wrapper goes around it when the node starts). */
  JavaCommand javaCommand() {
    List<String> flags = new ArrayList<>();
    // The heap, direct memory and code cache fixed at start, so that the memory cgroup bounds the
    // page cache only.
    flags.addAll(NodeJvm.boundedMemoryFlags(settings.heapBytes(), settings.maxDirectBytes()));
    flags.add("-Xss256k");
    flags.addAll(install.jvmFlags());
    flags.add("-Djava.net.preferIPv4Stack=true");
    flags.add("-Dcassandra-foreground=true");
    flags.add("-Dlogback.configurationFile=" + logbackFile().toUri());
    flags.add("-Dcassandra.config=" + yamlFile().toUri());
    flags.add("-Dcassandra.storagedir=" + nodeDir);
    // One node, no peers: no waiting for gossip or a ring to settle, nor to announce a shutdown.
    flags.add("-Dcassandra.skip_wait_for_gossip_to_settle=0");
    flags.add("-Dcassandra.ring_delay_ms=1000");
    flags.add("-Dcassandra.superuser_setup_delay_ms=0");
    flags.add("-Dcassandra.shutdown_announce_in_ms=0");
    // JMX bound to the loopback address only (CassandraDaemon: cassandra.jmx.local.port).
    flags.add("-Dcassandra.jmx.local.port=" + jmxPort);
    flags.add("-Djava.rmi.server.hostname=127.0.0.1");
    return new JavaCommand(JavaCommand.currentJava(), flags, install.classPath(), CassandraNode.MAIN, List.of());
  }

  String yamlText() {
    String n = nodeDir.toString();
    List<String> lines = new ArrayList<>(List.of(
        "# Written by the workload runner (dev.cairn.bench.engine.cassandra.CassandraNode): one node on 127.0.0.1.",
        "cluster_name: cairn-bench",
        "num_tokens: 1",
        "initial_token: 0",
        "partitioner: org.apache.cassandra.dht.Murmur3Partitioner",
        "endpoint_snitch: SimpleSnitch",
        "dynamic_snitch: false",
        "seed_provider:",
        "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider",
        "    parameters:",
        "      - seeds: \"127.0.0.1:" + storagePort + "\"",
        "listen_address: 127.0.0.1",
        "rpc_address: 127.0.0.1",
        "storage_port: " + storagePort,
        "start_native_transport: true",
        "native_transport_port: " + nativePort,
        "data_file_directories:",
        "  - " + YamlText.quoted(dataDir.toString()),
        "local_system_data_file_directory: " + YamlText.quoted(n + "/system"),
        "commitlog_directory: " + YamlText.quoted(n + "/commitlog"),
        "saved_caches_directory: " + YamlText.quoted(n + "/saved_caches"),
        "hints_directory: " + YamlText.quoted(n + "/hints"),
        "cdc_raw_directory: " + YamlText.quoted(n + "/cdc_raw"),
        "hinted_handoff_enabled: false",
        "commitlog_sync: periodic",
        "commitlog_sync_period: 10000ms",
        "commitlog_segment_size: 8MiB",
        // The commit log by direct I/O (5.0): with the default memory-mapped segments up to a sync
        // period's writes sit in the node's page cache as dirty pages the kernel cannot reclaim,
        // and a group at its limit with nothing reclaimable fails the JVM's own allocations.
        "commitlog_disk_access_mode: direct",
        // Flushes and compactions fsync every 4 MiB they write (Cassandra's advice for SSDs), so
        // their dirty pages stay few in the bounded page cache: the kernel cannot reclaim dirty
        // pages, and with cgroup v1 nothing writes them back before the global (24 GiB) limits.
        "trickle_fsync: true",
        "trickle_fsync_interval: 4096KiB",
        "auto_snapshot: false",
        "snapshot_before_compaction: false",
        "concurrent_compactors: " + settings.concurrentCompactors(),
        "compaction_throughput: " + settings.compactionThroughputMib() + "MiB/s",
        // Data files through the chunk cache, index files memory-mapped (5.0's default).
        "disk_access_mode: mmap_index_only",
        "file_cache_enabled: " + (settings.chunkCacheMib() > 0),
        "file_cache_size: " + settings.fileCacheMib() + "MiB",
        "column_index_size: " + settings.columnIndexKib() + "KiB",
        // Memtables off heap (cells and rows in native memory), so that the pool counts about the
        // data's bytes and the cleanup threshold flushes at about memtableBytes; the on-heap pool
        // (partition maps and tree nodes) is large enough never to trigger a flush itself.
        "memtable_allocation_type: offheap_objects",
        "memtable_offheap_space: " + settings.memtablePoolMib() + "MiB",
        "memtable_heap_space: " + Math.max(64, 8 * settings.memtablePoolMib()) + "MiB",
        "memtable_cleanup_threshold: " + String.format(java.util.Locale.ROOT, "%.4f", settings.memtableCleanupThreshold()),
        "memtable_flush_writers: 1",
        "networking_cache_size: " + CassandraNode.NETWORKING_CACHE_MIB + "MiB",
        "counter_cache_size: 0MiB",
        "read_request_timeout: 20000ms",
        "range_request_timeout: 20000ms",
        "write_request_timeout: 20000ms",
        "request_timeout: 20000ms",
        ""));
    return String.join("\n", lines);
  }
}

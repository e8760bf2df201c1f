package dev.cairn.bench.engine.hbase;

import dev.cairn.bench.engine.node.NodeJvm;
import dev.cairn.testkit.host.JavaCommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a runner's HBase server is started with: where its files go, its loopback ports, its
 * {@code hbase-site.xml}, its logging and metrics configuration, its JVM command line (before the
 * cgroup wrapper) and the settings its client connects with. Pure: writes and starts nothing
 * ({@link HBaseServer} does).
 *
 * <p>A standalone HBase ({@code hbase.cluster.distributed=false}): {@code HMaster start} runs
 * ZooKeeper, the master and one region server in one JVM, on the local file system.
 *
 * @param dataDir the run's database directory: {@code hbase.rootdir} (the table's store files,
 *     hbase:meta, the master's own region, the archive)
 * @param nodeDir everything else of the server (configuration, WALs, ZooKeeper, temporary files, logs)
 * @param javaHome the JDK the server runs on (17: Hadoop's UserGroupInformation fails on later ones)
 */
record HBaseLaunch(HBaseInstall install, HBaseServer.Settings settings, Path dataDir, Path nodeDir,
    int zookeeperPort, int masterPort, int regionServerPort, int jmxPort, Path javaHome) {
  static final String MAIN = "org.apache.hadoop.hbase.master.HMaster";
  /**
   * Hadoop's metrics period, which is also how long a JMX read may return a cached snapshot: well
   * below the runner's one-second samples (at 1 s every other sample saw the previous one's
   * figures), where Hadoop's default is 10 s.
   */
  static final int METRICS_PERIOD_MILLIS = 250;
  private static final long MIB = 1L << 20;

  /**
   * What belongs to the database beside its store files: the write-ahead logs (the region
   * server's and the master's own region's: the master will not start on a root directory whose
   * master-region WALs are gone) and ZooKeeper's data. Beside the data directory, not in it (the
   * runner sizes that) and not in the node directory, which each start wipes.
   */
  Path stateDir() {
    return dataDir.resolveSibling(dataDir.getFileName() + "-state");
  }

  Path confDir() {
    return nodeDir.resolve("conf");
  }

  /** The client's class-path directory: its own log4j configuration, nothing else. */
  Path clientConfDir() {
    return nodeDir.resolve("client-conf");
  }

  Path logFile() {
    return nodeDir.resolve("node.log");
  }

  Path clientLogFile() {
    return nodeDir.resolve("client.log");
  }

  /** Files of {@link #confDir} and {@link #clientConfDir} by path, with their contents. */
  Map<Path, String> configurationFiles() {
    Map<Path, String> files = new LinkedHashMap<>();
    files.put(confDir().resolve("hbase-site.xml"), siteXml(siteProperties()));
    files.put(confDir().resolve("log4j.properties"), serverLog4j());
    files.put(confDir().resolve("hadoop-metrics2-hbase.properties"), metricsProperties());
    files.put(clientConfDir().resolve("log4j.properties"), clientLog4j());
    return files;
  }

  /** The server's {@code hbase-site.xml} settings, in the order written. */
  Map<String, String> siteProperties() {
    Map<String, String> p = new LinkedHashMap<>();
    String n = nodeDir.toString();
    p.put("hbase.cluster.distributed", "false");
    p.put("fs.defaultFS", "file:///");
    p.put("hbase.rootdir", dataDir.toUri().toString());
    // WALs beside the store files but not under the run's database directory, which the runner
    // sizes for space amplification (as the Cassandra engines keep the commit log out of it).
    p.put("hbase.wal.dir", stateDir().resolve("wal").toUri().toString());
    p.put("hbase.tmp.dir", n + "/tmp");
    p.put("hbase.local.dir", n + "/local");
    p.put("hadoop.tmp.dir", n + "/hadoop-tmp");
    // A local file system has no hflush/hsync capability checks to pass (HBase's own advice for
    // standalone mode).
    p.put("hbase.unsafe.stream.capability.enforce", "false");
    // Everything on 127.0.0.1: ZooKeeper, the master's and the region server's RPC, and the names
    // they register under, which the client connects to.
    p.put("hbase.zookeeper.quorum", "127.0.0.1");
    p.put("hbase.zookeeper.property.clientPort", Integer.toString(zookeeperPort));
    p.put("hbase.zookeeper.property.clientPortAddress", "127.0.0.1");
    p.put("hbase.zookeeper.property.dataDir", stateDir().resolve("zookeeper").toString());
    p.put("hbase.master.hostname", "127.0.0.1");
    p.put("hbase.unsafe.regionserver.hostname", "127.0.0.1");
    p.put("hbase.master.ipc.address", "127.0.0.1");
    p.put("hbase.regionserver.ipc.address", "127.0.0.1");
    p.put("hbase.master.port", Integer.toString(masterPort));
    p.put("hbase.regionserver.port", Integer.toString(regionServerPort));
    // No web UIs: the runner reads metrics over JMX.
    p.put("hbase.master.info.port", "-1");
    p.put("hbase.regionserver.info.port", "-1");
    // The block cache: on-heap LRU of exactly the runner's budget (the fixed size applies while it
    // is below hfile.block.cache.size of the heap, HBase's default 0.4 here); 0 turns it off.
    if (settings.blockCacheBytes() > 0) {
      p.put("hfile.block.cache.size", "0.4");
      p.put("hfile.onheap.block.cache.fixed.size", Long.toString(settings.blockCacheBytes()));
    } else {
      p.put("hfile.block.cache.size", "0");
    }
    p.put("io.storefile.bloom.error.rate", String.format(java.util.Locale.ROOT, "%.4f", settings.bloomErrorRate()));
    p.put("hbase.hregion.memstore.flush.size", Long.toString(settings.memstoreFlushBytes()));
    // HBase refuses tables that flush below 1 MiB; the runner's memtable may be smaller.
    p.put("hbase.hregion.memstore.flush.size.limit", Long.toString(Math.min(MIB, settings.memstoreFlushBytes())));
    // The region server's aggregate metrics (store files, blocked requests) every second, not 5 s.
    p.put("hbase.regionserver.metrics.period", "1000");
    // Compacted-away files stay in the store until the discharger archives them (evicting their
    // blocks), then in the archive (under hbase.rootdir, so in db_bytes) until the master's cleaner
    // deletes them. HBase's periods (2 min; a 5 min TTL checked every 10 min) are scaled like the
    // runner's time (1/100, docs/benchmarks.md, "Scale"): discharged every 2 s, deleted 2-4 s after.
    if (settings.scaledArchiveCleaning()) {
      p.put("hbase.hfile.compaction.discharger.interval", "2000");
      p.put("hbase.master.hfilecleaner.ttl", "2000");
      p.put("hbase.master.cleaner.interval", "2000");
    }
    p.putAll(HBaseCodecs.siteProperties(settings.compression()));
    return p;
  }

  /** The child's command (the cgroup wrapper goes around it when the server starts). */
  JavaCommand javaCommand() {
    List<String> flags = new ArrayList<>();
    // The heap, direct memory and code cache fixed at start, so that the memory cgroup bounds the
    // page cache only (as the Cassandra node's).
    flags.addAll(NodeJvm.boundedMemoryFlags(settings.heapBytes(), settings.maxDirectBytes()));
    flags.addAll(install.jvmFlags());
    flags.add("-Djava.net.preferIPv4Stack=true");
    flags.add("-Dlog4j.configuration=" + confDir().resolve("log4j.properties").toUri());
    flags.add("-Dhbase.log.dir=" + nodeDir);
    // JMX, unauthenticated, on 127.0.0.1 only (registry and server on one port): the region
    // server's metrics and the plugin's beans.
    flags.add("-Dcom.sun.management.jmxremote.port=" + jmxPort);
    flags.add("-Dcom.sun.management.jmxremote.rmi.port=" + jmxPort);
    flags.add("-Dcom.sun.management.jmxremote.host=127.0.0.1");
    flags.add("-Dcom.sun.management.jmxremote.authenticate=false");
    flags.add("-Dcom.sun.management.jmxremote.ssl=false");
    flags.add("-Djava.rmi.server.hostname=127.0.0.1");
    return new JavaCommand(javaHome.resolve("bin").resolve("java"), flags, install.serverClassPath(confDir()), MAIN,
        List.of("start"));
  }

  /** What the runner's client connects with. */
  Map<String, String> clientSettings() {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("hbase.zookeeper.quorum", "127.0.0.1");
    c.put("hbase.zookeeper.property.clientPort", Integer.toString(zookeeperPort));
    // While the master initializes, table creation is refused and retried: room for about a minute.
    c.put("hbase.client.retries.number", "20");
    c.put("hbase.client.pause", "200");
    return c;
  }

  String serverLog4j() {
    return String.join("\n",
        "# Written by the workload runner (dev.cairn.bench.engine.hbase.HBaseServer): INFO to stdout, which goes to node.log.",
        "log4j.rootLogger=INFO,console",
        "log4j.appender.console=org.apache.log4j.ConsoleAppender",
        "log4j.appender.console.target=System.out",
        "log4j.appender.console.layout=org.apache.log4j.PatternLayout",
        "log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %-5p [%t] %c{2}: %m%n",
        "log4j.logger.org.apache.zookeeper=WARN",
        "log4j.logger.org.apache.hadoop=WARN",
        "log4j.logger.org.apache.hadoop.hbase=INFO",
        "");
  }

  String clientLog4j() {
    return String.join("\n",
        "# Written by the workload runner: HBase's client inside the runner logs warnings to client.log.",
        "log4j.rootLogger=WARN,file",
        "log4j.appender.file=org.apache.log4j.FileAppender",
        "log4j.appender.file.File=" + clientLogFile(),
        "log4j.appender.file.layout=org.apache.log4j.PatternLayout",
        "log4j.appender.file.layout.ConversionPattern=%d{ISO8601} %-5p [%t] %c{2}: %m%n",
        "");
  }

  /** Hadoop's metrics system: no sinks; the period is also how stale a JMX read may be. */
  String metricsProperties() {
    return "# Written by the workload runner: JMX attributes at most " + METRICS_PERIOD_MILLIS + " ms old.\n"
        + "*.periodMillis=" + METRICS_PERIOD_MILLIS + "\n";
  }

  /** A Hadoop configuration file with these properties. */
  static String siteXml(Map<String, String> properties) {
    StringBuilder sb = new StringBuilder("<?xml version=\"1.0\"?>\n")
        .append("<!-- Written by the workload runner (dev.cairn.bench.engine.hbase.HBaseServer). -->\n")
        .append("<configuration>\n");
    properties.forEach((k, v) -> sb.append("  <property><name>").append(xml(k)).append("</name><value>")
        .append(xml(v)).append("</value></property>\n"));
    return sb.append("</configuration>\n").toString();
  }

  static String xml(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}

package dev.cairn.bench.engine.hbase;

import dev.cairn.bench.engine.BenchEngine;
import dev.cairn.bench.engine.EngineMetrics;
import dev.cairn.bench.engine.EngineSettings;
import dev.cairn.bench.engine.node.ChildProcessIo;
import dev.cairn.bench.engine.node.NodeSummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import javax.management.ObjectName;

/**
 * Apache HBase 2.6.1 as a runner engine: {@code hbase-default}, {@code hbase-cache-on-write},
 * {@code hbase-prefetch}, {@code hbase-dlc} (Cairn's compaction policy, {@code hbase-adapter})
 * and {@code hbase-buffer} (Cairn's store engine with a compaction buffer, same module).
 * The five differ only in the table's {@code CONFIGURATION} ({@link HBaseSettings}): each starts
 * its own standalone HBase in a child JVM ({@link HBaseServer}) on HBase's jars plus the plugin
 * jar ({@link HBaseInstall}), and talks to it through HBase's own client, loaded from the same
 * jars in a class loader of its own ({@link HBaseClientLoader}), and over JMX on 127.0.0.1
 * (metrics). docs/benchmarks.md, "HBase engines", has the whole mapping.
 *
 * <p><b>Data model.</b> Table {@code kv}, one family {@code f} (BLOCKSIZE from the settings,
 * BLOOMFILTER ROW, the run's compression, one version), one region that never splits; record id {@code
 * i} is the row {@code Keys.encode(i)} (16 ASCII digits, so HBase's byte order is the ids' order)
 * with the value in qualifier {@code v}. A get is a {@code Get} of that cell, a scan a {@code Scan}
 * from the key with a row limit, a flush {@code Admin.flushRegion} of the table's region.
 */
public final class HBaseEngine implements BenchEngine {
  /** What the table's CONFIGURATION sets, the only difference between the engines. */
  public enum Variant {
    DEFAULT("hbase-default"),
    CACHE_ON_WRITE("hbase-cache-on-write"),
    PREFETCH("hbase-prefetch"),
    BEST("hbase-best"),
    DLC("hbase-dlc"),
    BUFFER("hbase-buffer");

    private final String engineName;

    Variant(String engineName) {
      this.engineName = engineName;
    }

    public String engineName() {
      return engineName;
    }

    /** Whether the variant runs Cairn's plugin (its compaction policy or its buffered store engine). */
    public boolean runsCairn() {
      return this == DLC || this == BUFFER;
    }

    /** The suffix of {@code -Dcairn.hbase.configuration.<suffix>}: the engine name after {@code hbase-}. */
    String propertySuffix() {
      return engineName.substring("hbase-".length());
    }
  }

  private static final long MIB = 1L << 20;
  private static final String TABLE_PREFIX = HBaseCounters.tableAttribute(HBaseSettings.TABLE, "");
  /** The plugin's per-store bean (CairnCompactionPolicy.registerBean: table and family quoted). */
  private static final String CAIRN_BEANS = "dev.cairn.hbase:type=CompactionPolicy,table="
      + ObjectName.quote(HBaseSettings.TABLE) + ",*";
  /** The buffer engine's per-store bean (CairnBufferStoreEngine: table and family quoted). */
  private static final String BUFFER_BEANS = "dev.cairn.hbase:type=CompactionBuffer,table="
      + ObjectName.quote(HBaseSettings.TABLE) + ",*";
  private static final List<String> BUFFER_ATTRIBUTES = List.of("Generations", "BufferFiles", "BufferBytes",
      "BufferCachedFraction", "OutputBytes", "OutputCachedFraction", "ChangedRows", "RowFilterBytes", "ReadsFromBuffer",
      "ReadsFromOutputs", "LeafFilesOpened", "LeafFilesSkipped", "WarmHandOvers", "WarmedBlocks",
      "WarmedBytes", "BufferedCompactions", "UnbufferedCompactions", "LastNotBufferedReason", "RetiredCooled",
      "RetiredOutputWarm", "RetiredOutgrown", "RetiredDiluted", "RetiredOverBudget", "RetiredByUnbufferedCompaction");

  private final Variant variant;
  private HBaseServer server;
  private HBaseClient client;
  private Map<String, String> configuration = Map.of();
  private List<String> unhonoured = List.of();
  private int regionsFlushed;

  public HBaseEngine(Variant variant) {
    this.variant = variant;
  }

  public Variant variant() {
    return variant;
  }

  @Override
  public void open(Path dir, EngineSettings s) {
    HBaseInstall install = HBaseInstall.locate();
    HBaseServer.Settings serverSettings = HBaseSettings.serverSettings(s);
    HBaseClient.TableSpec table = HBaseSettings.tableSpec(variant, s);
    configuration = table.configuration();
    String name = variant.engineName();
    System.err.printf("[%s] starting HBase (log %s)%n", name,
        dir.toAbsolutePath().resolveSibling(dir.getFileName() + "-node").resolve("node.log"));
    long t0 = System.nanoTime();
    server = HBaseServer.start(name, install, dir, serverSettings);
    try {
      HBaseLaunch launch = server.launchSettings();
      List<Path> clientPath = new ArrayList<>();
      clientPath.add(launch.clientConfDir());
      clientPath.addAll(install.libJars());
      client = HBaseClientLoader.newClient(clientPath);
      client.connect(launch.clientSettings());
      client.createTable(table);
      server.boundPageCache();
      unhonoured = HBaseSettings.unhonoured(variant, s, serverSettings, server.jvm().cgroupProblem());
      System.err.printf("[%s] HBase pid %d up, table created in %.1f s; table configuration %s%s%n", name,
          server.jvm().pid(), (System.nanoTime() - t0) / 1e9, configuration,
          "; " + server.jvm().cgroupDescription());
      Files.writeString(launch.nodeDir().resolve("table.txt"), client.describeTable() + "\n", StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      close();
      throw e instanceof RuntimeException re ? re : new IllegalStateException(e);
    }
  }

  @Override
  public void put(byte[] key, byte[] value) {
    client.put(key, value);
  }

  @Override
  public byte[] get(byte[] key) {
    return client.get(key);
  }

  @Override
  public int scan(byte[] from, int limit) {
    return client.scan(from, limit);
  }

  @Override
  public void flush() {
    regionsFlushed += client.flushRegions();
  }

  @Override
  public EngineMetrics metrics() {
    Map<String, Object> cache = server.jmx().attributes(HBaseServer.SERVER_BEAN, HBaseCounters.CACHE_ATTRIBUTES);
    long compaction = tableCounter("compactedOutputBytes");
    if (!EngineMetrics.available(compaction)) {
      compaction = HBaseCounters.number(server.jmx().attribute(HBaseServer.SERVER_BEAN, "compactedOutputBytes"));
    }
    long device = deviceBytesWritten();
    long blockedMillis = HBaseCounters.number(server.jmx().attribute(HBaseServer.SERVER_BEAN, "updatesBlockedTime"));
    return new EngineMetrics(HBaseCounters.userDataHits(cache), HBaseCounters.userDataMisses(cache), device,
        compaction, EngineMetrics.available(blockedMillis) ? blockedMillis * 1000 : EngineMetrics.UNAVAILABLE);
  }

  /**
   * Bytes HBase wrote to files: its WAL ({@code sub=WAL writtenBytes}), flushes and compactions
   * (the region server's {@code flushedOutputBytes}, {@code compactedOutputBytes}), as RocksDB's
   * tickers count. Not {@code /proc/PID/io}: HBase deletes compacted files within seconds here
   * (see {@link HBaseLaunch#siteProperties}), before writeback, and the kernel then counts their
   * pages as cancelled writes of the deleting process, so {@code write_bytes -
   * cancelled_write_bytes} fell over a smoke run's measured phase.
   */
  private long deviceBytesWritten() {
    long wal = HBaseCounters.number(server.jmx().attribute(HBaseServer.WAL_BEAN, "writtenBytes"));
    Map<String, Object> s = server.jmx().attributes(HBaseServer.SERVER_BEAN, "flushedOutputBytes", "compactedOutputBytes");
    long flushed = HBaseCounters.number(s.get("flushedOutputBytes"));
    long compacted = HBaseCounters.number(s.get("compactedOutputBytes"));
    return EngineMetrics.available(wal) && EngineMetrics.available(flushed) && EngineMetrics.available(compacted)
        ? wal + flushed + compacted : EngineMetrics.UNAVAILABLE;
  }

  /** The table's store files now: HBase's store is one tier, every file in it is "level 0". */
  @Override
  public int l0Files() {
    long files = tableCounter("storeFileCount");
    return EngineMetrics.available(files) ? (int) files : -1;
  }

  @Override
  public String loadClass() {
    if (variant != Variant.DLC) {
      return "";
    }
    Object v = cairnAttribute("LoadClass");
    return v == null ? "" : v.toString();
  }

  /** The compaction buffer's bytes on disk (hbase-buffer; summed over the table's stores), else NaN. */
  @Override
  public double bufferBytes() {
    if (variant != Variant.BUFFER) {
      return Double.NaN;
    }
    long sum = 0;
    for (ObjectName bean : server.jmx().beans(BUFFER_BEANS)) {
      long bytes = HBaseCounters.number(server.jmx().attribute(bean.toString(), "BufferBytes"));
      if (!EngineMetrics.available(bytes)) {
        return Double.NaN;
      }
      sum += bytes;
    }
    return sum;
  }

  private long tableCounter(String metric) {
    return HBaseCounters.number(server.jmx().attribute(HBaseServer.TABLES_BEAN, TABLE_PREFIX + metric));
  }

  /** An attribute of the plugin's bean for the table's store, or null before its first selection. */
  private Object cairnAttribute(String attribute) {
    Set<ObjectName> beans = server.jmx().beans(CAIRN_BEANS);
    return beans.isEmpty() ? null : server.jmx().attribute(beans.iterator().next().toString(), attribute);
  }

  @Override
  public List<String> unhonouredSettings() {
    return unhonoured;
  }

  @Override
  public void close() {
    String summary = null;
    if (server != null) {
      try {
        summary = summary();
      } catch (RuntimeException e) {
        summary = "(no summary: " + e + ")\n";
      }
    }
    if (client != null) {
      try {
        client.close();
      } catch (RuntimeException e) {
        // the server goes anyway
      }
      client = null;
    }
    if (server != null) {
      HBaseServer s = server;
      server = null;
      long t0 = System.nanoTime();
      int status = s.stop();
      s.deleteState(); // the runner never reopens a run's database
      String text = summary + String.format(Locale.ROOT, "server exit status %d after %.1f s%n", status,
          (System.nanoTime() - t0) / 1e9);
      NodeSummary.write(s.directory(), variant.engineName(), text);
    }
  }

  /** What the report has no column for: flushes, blocked requests and flushes, the cache, reads, Cairn's counters. */
  private String summary() {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "table configuration %s; regions flushed by the runner %d%n", configuration,
        regionsFlushed));
    Map<String, Object> t = server.jmx().attributes(HBaseServer.TABLES_BEAN, TABLE_PREFIX + "flushedOutputBytes",
        TABLE_PREFIX + "flushTime_num_ops", TABLE_PREFIX + "compactedInputBytes", TABLE_PREFIX + "compactedOutputBytes",
        TABLE_PREFIX + "storeFileCount", TABLE_PREFIX + "storeFileSize");
    long flushes = HBaseCounters.number(t.get(TABLE_PREFIX + "flushTime_num_ops"));
    long flushed = HBaseCounters.number(t.get(TABLE_PREFIX + "flushedOutputBytes"));
    sb.append(String.format(Locale.ROOT, "flushes %d, %.2f MiB flushed (%.0f KiB each); compacted %.2f MiB in, %.2f MiB"
            + " out; store files %s (%.2f MiB)%n", flushes, flushed / (double) MIB,
        flushes > 0 ? flushed / 1024.0 / flushes : Double.NaN,
        HBaseCounters.number(t.get(TABLE_PREFIX + "compactedInputBytes")) / (double) MIB,
        HBaseCounters.number(t.get(TABLE_PREFIX + "compactedOutputBytes")) / (double) MIB,
        t.get(TABLE_PREFIX + "storeFileCount"),
        HBaseCounters.number(t.get(TABLE_PREFIX + "storeFileSize")) / (double) MIB));
    Map<String, Object> s = server.jmx().attributes(HBaseServer.SERVER_BEAN, "updatesBlockedTime", "blockedRequestCount",
        "blockCacheSize", "blockCacheCount", "blockCacheDataBlockCount", "blockCacheEvictionCount",
        "blockCacheHitCount", "blockCacheMissCount", "blockCacheHitCachingCount", "blockCacheMissCachingCount",
        "blockCacheDataHitCount", "blockCacheDataMissCount");
    sb.append(String.format(Locale.ROOT, "updates blocked %s ms, blocked requests %s; flushes delayed for too many"
            + " store files (node.log) %d%n", s.get("updatesBlockedTime"), s.get("blockedRequestCount"),
        delayedFlushes()));
    sb.append(String.format(Locale.ROOT, "block cache %.1f MiB, %s blocks (%s data), %s evictions; lookups: all %s/%s,"
            + " caching reads %s/%s, data %s/%s (hits/misses)%n",
        HBaseCounters.number(s.get("blockCacheSize")) / (double) MIB, s.get("blockCacheCount"),
        s.get("blockCacheDataBlockCount"), s.get("blockCacheEvictionCount"), s.get("blockCacheHitCount"),
        s.get("blockCacheMissCount"), s.get("blockCacheHitCachingCount"), s.get("blockCacheMissCachingCount"),
        s.get("blockCacheDataHitCount"), s.get("blockCacheDataMissCount")));
    Map<String, Object> cache = server.jmx().attributes(HBaseServer.SERVER_BEAN, HBaseCounters.CACHE_ATTRIBUTES);
    sb.append(String.format(Locale.ROOT, "client data-block lookups (the hit ratio's): %d hits, %d misses%n",
        HBaseCounters.userDataHits(cache), HBaseCounters.userDataMisses(cache)));
    ChildProcessIo io = server.jvm().processIo();
    sb.append(String.format(Locale.ROOT, "server process device reads %.2f MiB, writes %.2f MiB net of cancelled"
            + " (/proc/PID/io)%n",
        io.bytesRead() / (double) MIB, io.bytesWritten() / (double) MIB));
    if (variant == Variant.DLC) {
      List<String> parts = new ArrayList<>();
      Set<ObjectName> beans = server.jmx().beans(CAIRN_BEANS);
      for (ObjectName bean : beans) {
        for (String a : List.of("LoadClass", "ClientReadBytesPerSecond", "DelayedCompactions", "PartRuns",
            "ReleasesAtBound", "ColderChoices", "CurrentDelayMillis", "CachedFraction", "CacheWalks", "LastDecision")) {
          parts.add(a + "=" + server.jmx().attribute(bean.toString(), a));
        }
      }
      sb.append("cairn ").append(beans.isEmpty() ? "(no policy bean: no selection yet)" : String.join(", ", parts))
          .append('\n');
    }
    if (variant == Variant.BUFFER) {
      List<String> parts = new ArrayList<>();
      Set<ObjectName> beans = server.jmx().beans(BUFFER_BEANS);
      for (ObjectName bean : beans) {
        for (String a : BUFFER_ATTRIBUTES) {
          parts.add(a + "=" + server.jmx().attribute(bean.toString(), a));
        }
      }
      sb.append("cairn buffer ").append(beans.isEmpty() ? "(no buffer bean)" : String.join(", ", parts)).append('\n');
    }
    String memory = server.jvm().memorySummary();
    if (memory != null) {
      sb.append(memory).append('\n');
    }
    sb.append("log ").append(server.logFile()).append('\n');
    return sb.toString();
  }

  /** MemStoreFlusher's warnings that it delays a flush for too many store files: no metric counts them. */
  private long delayedFlushes() {
    try (Stream<String> lines = Files.lines(server.logFile(), StandardCharsets.UTF_8)) {
      return lines.filter(l -> l.contains("has too many store files(")).count();
    } catch (IOException | java.io.UncheckedIOException e) {
      return -1;
    }
  }
}

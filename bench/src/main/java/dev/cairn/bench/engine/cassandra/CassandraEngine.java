package dev.cairn.bench.engine.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import dev.cairn.bench.engine.BenchEngine;
import dev.cairn.bench.engine.EngineMetrics;
import dev.cairn.bench.engine.EngineSettings;
import dev.cairn.bench.engine.node.NodeSummary;
import dev.cairn.bench.workload.Keys;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Apache Cassandra 5.0.9 as a runner engine: {@code cassandra-lcs}, {@code cassandra-ucs} and
 * {@code cassandra-cairn} (Cairn's compaction strategy, {@code cassandra-adapter}). The three
 * differ only in the table's compaction options: each starts its own node in a child JVM
 * ({@link CassandraNode}) on Cassandra's jars plus the plugin jar ({@link CassandraInstall}), and
 * talks to it through the Apache Cassandra Java driver over the native protocol on 127.0.0.1
 * (one session, prepared statements, synchronous calls from the runner's worker threads) and
 * over JMX on 127.0.0.1 (flush, metrics). docs/benchmarks.md, "Cassandra engines", has the whole
 * mapping.
 *
 * <p><b>Data model.</b> {@code bench.kv (b bigint, k bigint, v blob, PRIMARY KEY (b, k))},
 * SimpleStrategy with one replica, compression off, {@code bloom_filter_fp_chance} from the
 * settings' bits per key, key cache on and row cache off. Record id {@code i} is the row {@code k
 * = i} of partition {@code b = key(i / bucketRecords)}, with bucket keys whose Murmur3 tokens
 * increase with the bucket ({@link TokenBuckets}): Cassandra's (token, clustering) order is the
 * ids' order, so rangehot's hot range is a contiguous token range, in few SSTables per level, as in
 * the Cairn engines. A get is {@code SELECT v WHERE b = ? AND k = ?}; a scan reads {@code k >= ?}
 * in the key's partition and, if that gives fewer rows than asked, continues with {@code
 * token(b) > ?} over the following partitions, which hold the following ids.
 *
 * <p><b>Bucket size: 7 records</b> with the default 1 KiB values, about 7.3 KiB partitions
 * ({@link #defaultBucketRecords}; {@code -Dcairn.cassandra.bucketRecords=N} overrides it). Small
 * partitions keep a Cassandra table close to a key-value engine's:
 * <ol>
 *   <li>Cassandra reads an uncompressed SSTable in chunks sized from its partitions (the
 *       disk-optimization buffer: the 95th-percentile partition size, rounded up to 4 KiB pages
 *       plus a page when a read would likely cross one, at most 64 KiB, then down to a power of two
 *       for the chunk cache; {@link #chunkBytes}). 7-record partitions give 8 KiB chunks, the
 *       smallest a 1 KiB row allows (one row alone crosses a page); 8 records already give 16 KiB
 *       and the 256-record partitions one might pick for "small relative to the SSTable" give
 *       64 KiB, each chunk-cache miss reading 16 times the runner's 4 KiB block.
 *   <li>The Bloom filter is on partition keys. With big partitions nearly every L0 SSTable (a
 *       memtable of ~1,000 random updates) holds a row of every partition, so the filter stops no
 *       read; with ~29,000 partitions of 7 it stops most.
 *   <li>A partition is never split across SSTables, so it must be far below the SSTable size
 *       (7.3 KiB is 1/280 of 2 MiB; the rule caps it at 1/64).
 * </ol>
 * The cost is more partitions (29,258 for the default 204,800 records; the search for twice
 * that many keys takes well under a second) and more partition-index entries. Scans cross
 * partitions with one range query, not one per bucket.
 *
 * <p>Buckets are laid out for twice the loaded records (inserts of YCSB D/E append ids); ids past
 * that go to the last bucket, which keeps the order.
 */
public final class CassandraEngine implements BenchEngine {
  /** The compaction strategy of the table, the only difference between the three engines. */
  public enum Strategy {
    LCS("cassandra-lcs"),
    UCS("cassandra-ucs"),
    CAIRN("cassandra-cairn"),
    /** Cairn's plugin on UCS: {@code dev.cairn.cassandra.CairnUnifiedCompactionStrategy}. */
    CAIRN_UCS("cassandra-cairn-ucs"),
    /** Cairn's plugin on LCS warming compaction output ({@code warm_output: true}). */
    CAIRN_WARM("cassandra-cairn-warm"),
    /** Cairn's plugin on UCS warming compaction output ({@code warm_output: true}). */
    CAIRN_UCS_WARM("cassandra-cairn-ucs-warm");

    private final String engineName;

    Strategy(String engineName) {
      this.engineName = engineName;
    }

    public String engineName() {
      return engineName;
    }

    /** Whether the strategy is Cairn's plugin. */
    public boolean runsCairn() {
      return this != LCS && this != UCS;
    }

    /** Whether the plugin warms compaction output (off by default). */
    public boolean warmsOutput() {
      return this == CAIRN_WARM || this == CAIRN_UCS_WARM;
    }

    /** The lower-case suffix of {@code -Dcairn.cassandra.options.<suffix>}. */
    String optionsSuffix() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public static final String KEYSPACE = "bench";
  public static final String TABLE = "kv";
  private static final long MIB = 1L << 20;
  private static final int MAX_WRITE_ATTEMPTS = 5;
  private final java.util.concurrent.atomic.LongAdder writeTimeoutsRetried =
      new java.util.concurrent.atomic.LongAdder();
  private static final String TABLE_METRIC = "org.apache.cassandra.metrics:type=Table,keyspace=" + KEYSPACE
      + ",scope=" + TABLE + ",name=";
  private static final String CHUNK_CACHE_METRIC = "org.apache.cassandra.metrics:type=Cache,scope=ChunkCache,name=";
  private static final String TABLE_BEAN = "org.apache.cassandra.db:type=Tables,keyspace=" + KEYSPACE
      + ",table=" + TABLE;
  /** The plugin's bean (CairnCompactionMetrics.objectName), named as the README documents it. */
  private static final String CAIRN_BEAN = "dev.cairn.cassandra:type=CairnCompaction,keyspace=" + KEYSPACE
      + ",table=" + TABLE;

  private final Strategy strategy;
  private CassandraNode node;
  private CqlSession session;
  private TokenBuckets buckets;
  private PreparedStatement insert;
  private PreparedStatement select;
  private PreparedStatement scanPartition;
  private PreparedStatement scanFollowing;
  private List<String> unhonoured = List.of();
  private Map<String, String> compaction = Map.of();
  private boolean tokensVerified;

  public CassandraEngine(Strategy strategy) {
    this.strategy = strategy;
  }

  public Strategy strategy() {
    return strategy;
  }

  @Override
  public void open(Path dir, EngineSettings s) {
    CassandraInstall install = CassandraInstall.locate();
    int bucketRecords = CassandraSettings.bucketRecords(s);
    CassandraNode.Settings nodeSettings = CassandraSettings.nodeSettings(s);
    compaction = CassandraSettings.compactionOptions(strategy, s);
    String name = strategy.engineName();
    System.err.printf("[%s] starting a Cassandra node (log %s)%n", name,
        dir.toAbsolutePath().resolveSibling(dir.getFileName() + "-node").resolve("node.log"));
    long t0 = System.nanoTime();
    node = CassandraNode.start(name, install, dir, nodeSettings);
    try {
      session = CqlSession.builder()
          .addContactPoint(new InetSocketAddress("127.0.0.1", node.nativePort()))
          .withLocalDatacenter("datacenter1")
          .withConfigLoader(driverConfig())
          .build();
      createSchema(s);
      TokenMap tokenMap = session.getMetadata().getTokenMap().orElseThrow(() -> new IllegalStateException(
          "the driver has no token map for the node"));
      if (!tokenMap.getPartitionerName().endsWith("Murmur3Partitioner")) {
        throw new IllegalStateException("the node runs " + tokenMap.getPartitionerName() + ", not Murmur3Partitioner");
      }
      long capacity = Math.max(2 * s.records(), 1024);
      buckets = TokenBuckets.search(capacity, bucketRecords,
          key -> Long.parseLong(tokenMap.format(tokenMap.newToken(key))));
      prepare();
      node.boundPageCache();
      unhonoured = CassandraSettings.unhonoured(strategy, s, nodeSettings, bucketRecords, node.jvm().cgroupProblem());
      System.err.printf("[%s] node pid %d up in %.1f s; compaction %s; %d buckets of %d records (%d token tries)%s%n",
          name, node.jvm().pid(), (System.nanoTime() - t0) / 1e9, compaction, buckets.buckets(), bucketRecords,
          buckets.tries(), "; " + node.jvm().cgroupDescription());
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }








  private static DriverConfigLoader driverConfig() {
    return DriverConfigLoader.programmaticBuilder()
        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30))
        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10))
        .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(30))
        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
        .withString(DefaultDriverOption.REQUEST_CONSISTENCY, "ONE")
        .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD, 0)
        .withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD, 0)
        .build();
  }

  private void createSchema(EngineSettings s) {
    session.execute("CREATE KEYSPACE " + KEYSPACE
        + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    session.execute("CREATE TABLE " + KEYSPACE + "." + TABLE
        + " (b bigint, k bigint, v blob, PRIMARY KEY (b, k))"
        + " WITH compaction = " + cqlMap(compaction)
        + " AND compression = " + cqlMap(CassandraSettings.compression(s.compression()))
        + " AND bloom_filter_fp_chance = " + String.format(Locale.ROOT, "%.4f", CassandraSettings.bloomFpChance(s.bloomBitsPerKey()))
        + " AND caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'}");
  }


  static String cqlMap(Map<String, String> m) {
    return m.entrySet().stream()
        .map(e -> "'" + e.getKey().replace("'", "''") + "': '" + e.getValue().replace("'", "''") + "'")
        .collect(Collectors.joining(", ", "{", "}"));
  }

  private void prepare() {
    String t = KEYSPACE + "." + TABLE;
    insert = session.prepare("INSERT INTO " + t + " (b, k, v) VALUES (?, ?, ?)");
    select = session.prepare("SELECT v FROM " + t + " WHERE b = ? AND k = ?");
    scanPartition = session.prepare("SELECT k, v FROM " + t + " WHERE b = ? AND k >= ? LIMIT ?");
    scanFollowing = session.prepare("SELECT k, v FROM " + t + " WHERE token(b) > ? LIMIT ?");
  }

  @Override
  public void put(byte[] key, byte[] value) {
    long id = Keys.decode(key);
    BoundStatement write = insert.bind(buckets.key(buckets.bucketOf(id)), id, ByteBuffer.wrap(value));
    for (int attempt = 1; ; attempt++) {
      try {
        session.execute(write);
        return;
      } catch (WriteTimeoutException e) {
        // An upsert is idempotent, and an application would retry it; one timed-out write (a
        // node briefly stalled, e.g. by its memory cgroup) must not fail the whole run. Counted
        // in node-summary.txt.
        writeTimeoutsRetried.increment();
        if (attempt == MAX_WRITE_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  @Override
  public byte[] get(byte[] key) {
    long id = Keys.decode(key);
    Row row = session.execute(select.bind(buckets.key(buckets.bucketOf(id)), id)).one();
    if (row == null) {
      return null;
    }
    ByteBuffer v = row.getByteBuffer(0);
    if (v == null) {
      return null;
    }
    byte[] out = new byte[v.remaining()];
    v.get(out);
    return out;
  }

  @Override
  public int scan(byte[] from, int limit) {
    if (limit <= 0) {
      return 0;
    }
    long id = Keys.decode(from);
    int bucket = buckets.bucketOf(id);
    int n = consume(session.execute(scanPartition.bind(buckets.key(bucket), id, limit)));
    if (n < limit && bucket < buckets.buckets() - 1) {
      n += consume(session.execute(scanFollowing.bind(buckets.token(bucket), limit - n)));
    }
    return n;
  }

  private static int consume(ResultSet rs) {
    int n = 0;
    for (Row r : rs) {
      r.getLong(0);
      r.getByteBuffer(1);
      n++;
    }
    return n;
  }

  @Override
  public void flush() {
    node.flush(KEYSPACE, TABLE);
    if (!tokensVerified) {
      verifyTokens();
      tokensVerified = true;
    }
  }

  /**
   * Checks the driver's Murmur3 against the node's: the node's {@code token(b)} of the first and
   * last loaded partitions equals the token the buckets were chosen by.
   */
  private void verifyTokens() {
    PreparedStatement q = session.prepare("SELECT token(b) FROM " + KEYSPACE + "." + TABLE + " WHERE b = ? LIMIT 1");
    List<Integer> checked = new ArrayList<>();
    for (int bucket : new int[] {0, buckets.buckets() / 2 - 1}) {
      if (bucket < 0) {
        continue;
      }
      Row row = session.execute(q.bind(buckets.key(bucket))).one();
      if (row == null) {
        continue; // not loaded (a workload without a load phase)
      }
      if (row.getLong(0) != buckets.token(bucket)) {
        throw new IllegalStateException("the node's token of bucket " + bucket + " is " + row.getLong(0)
            + ", the driver's " + buckets.token(bucket) + ": key order would not hold");
      }
      checked.add(bucket);
    }
    if (!checked.isEmpty()) {
      System.err.printf("[%s] the node's tokens of buckets %s are the driver's%n", strategy.engineName(), checked);
    }
  }

  @Override
  public EngineMetrics metrics() {
    long hits = node.jmx().count(CHUNK_CACHE_METRIC + "Hits");
    long misses = node.jmx().count(CHUNK_CACHE_METRIC + "Misses");
    long compactionBytes = node.jmx().count(TABLE_METRIC + "CompactionBytesWritten");
    long device = node.processBytesWritten();
    if (!EngineMetrics.available(device)) {
      long flushed = node.jmx().count(TABLE_METRIC + "BytesFlushed");
      device = EngineMetrics.available(flushed) && EngineMetrics.available(compactionBytes)
          ? flushed + compactionBytes : EngineMetrics.UNAVAILABLE;
    }
    return new EngineMetrics(hits, misses, device, compactionBytes, EngineMetrics.UNAVAILABLE);
  }

  /** LCS and Cairn: the table's SSTables in level 0; UCS has no levels over JMX: -1. */
  @Override
  public int l0Files() {
    Object levels = node.jmx().attribute(TABLE_BEAN, "SSTableCountPerLevel");
    return levels instanceof int[] a && a.length > 0 ? a[0] : -1;
  }

  @Override
  public String loadClass() {
    if (!strategy.runsCairn()) {
      return "";
    }
    Object v = node.jmx().attribute(CAIRN_BEAN, "LoadClass");
    return v == null ? "" : v.toString();
  }

  @Override
  public List<String> unhonouredSettings() {
    return unhonoured;
  }

  @Override
  public void close() {
    String summary = null;
    if (node != null) {
      try {
        summary = summary();
      } catch (RuntimeException e) {
        summary = "(no summary: " + e + ")";
      }
    }
    if (session != null) {
      try {
        session.close();
      } catch (RuntimeException e) {
        // the node goes anyway
      }
      session = null;
    }
    if (node != null) {
      CassandraNode n = node;
      node = null;
      int status = n.stop();
      String text = summary + "node exit status " + status + "\n";
      NodeSummary.write(n.directory(), strategy.engineName(), text);
    }
  }

  /** What the report has no column for: flushes, SSTables per read, chunk size, memory, Cairn's counters. */
  private String summary() {
    StringBuilder sb = new StringBuilder();
    long flushes = node.jmx().count(TABLE_METRIC + "MemtableSwitchCount");
    long flushed = node.jmx().count(TABLE_METRIC + "BytesFlushed");
    sb.append(String.format(Locale.ROOT, "compaction %s%n", compaction));
    sb.append(String.format(Locale.ROOT, "write timeouts retried %d%n", writeTimeoutsRetried.sum()));
    sb.append(String.format(Locale.ROOT, "flushes %d, %.2f MiB flushed (%.0f KiB each)%n", flushes, flushed / (double) MIB,
        flushes > 0 ? flushed / 1024.0 / flushes : Double.NaN));
    Object perRead = node.jmx().attribute(TABLE_METRIC + "SSTablesPerReadHistogram", "Mean");
    Object live = node.jmx().attribute(TABLE_METRIC + "LiveSSTableCount", "Value");
    Object levels = node.jmx().attribute(TABLE_BEAN, "SSTableCountPerLevel");
    sb.append(String.format(Locale.ROOT, "SSTables per read (mean, recent) %s; live SSTables %s; per level %s%n",
        perRead instanceof Number p ? String.format(Locale.ROOT, "%.2f", p.doubleValue()) : "n/a", live,
        levels instanceof int[] a ? java.util.Arrays.toString(a) : "n/a"));
    Object size = node.jmx().attribute(CHUNK_CACHE_METRIC + "Size", "Value");
    Object entries = node.jmx().attribute(CHUNK_CACHE_METRIC + "Entries", "Value");
    Object capacity = node.jmx().attribute(CHUNK_CACHE_METRIC + "Capacity", "Value");
    if (size instanceof Number sz && entries instanceof Number en && en.longValue() > 0) {
      sb.append(String.format(Locale.ROOT, "chunk cache %.1f of %.1f MiB, %d chunks of %.1f KiB on average%n",
          sz.doubleValue() / MIB, capacity instanceof Number c ? c.doubleValue() / MIB : Double.NaN,
          en.longValue(), sz.doubleValue() / en.longValue() / 1024));
    }
    if (strategy.runsCairn()) {
      List<String> parts = new ArrayList<>();
      for (String a : List.of("LoadClass", "ClientReadBytesPerSecond", "DelayedCompactions", "BurstyRuns",
          "ReleasesAtBound", "HotInputsSpared", "CompactionsStarted", "LastDecision", "WarmedCompactions",
          "WarmedChunks", "WarmedBytes", "WarmMillis", "WarmsSkipped", "WarmLeftOutBytes", "WarmedOutputReads",
          "LastWarm")) {
        parts.add(a + "=" + node.jmx().attribute(CAIRN_BEAN, a));
      }
      sb.append("cairn ").append(String.join(", ", parts)).append('\n');
    }
    String memory = node.jvm().memorySummary();
    if (memory != null) {
      sb.append(memory).append('\n');
    }
    sb.append("log ").append(node.logFile()).append('\n');
    return sb.toString();
  }
}

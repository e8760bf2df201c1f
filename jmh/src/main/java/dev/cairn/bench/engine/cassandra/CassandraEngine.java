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
import dev.cairn.bench.workload.Keys;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
    CAIRN("cassandra-cairn");

    private final String engineName;

    Strategy(String engineName) {
      this.engineName = engineName;
    }

    public String engineName() {
      return engineName;
    }

    /** The lower-case suffix of {@code -Dcairn.cassandra.options.<suffix>}. */
    String optionsSuffix() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public static final String KEYSPACE = "bench";
  public static final String TABLE = "kv";
  static final long DEFAULT_HEAP_MIB = 768;
  /** Cassandra's default for one data directory on two cores: min(8, max(2, min(cores, disks))). */
  static final int CONCURRENT_COMPACTORS = 2;
  /** Cassandra's default {@code compaction_throughput}, the same for all three engines. */
  static final int COMPACTION_THROUGHPUT_MIB = 64;
  /** Periodic's share of gets (as {@code CairnTableEngine.PERIODIC_GET_FRACTION}). */
  static final double PERIODIC_GET_FRACTION = 0.7;
  private static final long MIB = 1L << 20;
  private static final int MAX_WRITE_ATTEMPTS = 5;
  private final java.util.concurrent.atomic.LongAdder writeTimeoutsRetried =
      new java.util.concurrent.atomic.LongAdder();
  private static final String TABLE_METRIC = "org.apache.cassandra.metrics:type=Table,keyspace=" + KEYSPACE
      + ",scope=" + TABLE + ",name=";
  private static final String CHUNK_CACHE_METRIC = "org.apache.cassandra.metrics:type=Cache,scope=ChunkCache,name=";
  private static final String TABLE_BEAN = "org.apache.cassandra.db:type=Tables,keyspace=" + KEYSPACE
      + ",table=" + TABLE;
  /** The plugin's bean (CairnCompactionMetrics.objectName: the key properties are quoted). */
  private static final String CAIRN_BEAN = "dev.cairn.cassandra:type=CairnCompaction,keyspace="
      + javax.management.ObjectName.quote(KEYSPACE) + ",table=" + javax.management.ObjectName.quote(TABLE);

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
    int bucketRecords = bucketRecords(s);
    CassandraNode.Settings nodeSettings = nodeSettings(s);
    compaction = compactionOptions(strategy, s);
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
      unhonoured = unhonoured(strategy, s, nodeSettings, bucketRecords, node.cgroupProblem());
      System.err.printf("[%s] node pid %d up in %.1f s; compaction %s; %d buckets of %d records (%d token tries)%s%n",
          name, node.pid(), (System.nanoTime() - t0) / 1e9, compaction, buckets.buckets(), bucketRecords,
          buckets.tries(), node.cgroup() == null ? "; no memory cgroup: " + node.cgroupProblem()
              : "; memory cgroup " + node.cgroup().directory());
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  static CassandraNode.Settings nodeSettings(EngineSettings s) {
    long heap = Long.getLong("cairn.cassandra.heapMb", DEFAULT_HEAP_MIB) * MIB;
    // Flush at about memtableBytes of memtable memory: a pool of twice that (whole MiB) with the
    // cleanup threshold at memtableBytes' share of it.
    int pool = (int) Math.max(1, (2 * s.memtableBytes() + MIB - 1) / MIB);
    double threshold = Math.min(1.0, Math.max(0.01, (double) s.memtableBytes() / (pool * MIB)));
    int columnIndexKib = Math.max(1, s.blockBytes() >> 10);
    return new CassandraNode.Settings(heap, s.blockCacheBytes(), pool, threshold, columnIndexKib,
        CONCURRENT_COMPACTORS, COMPACTION_THROUGHPUT_MIB, s.nodePageCacheBytes());
  }

  /** The table's compaction map for a strategy, plus {@code -Dcairn.cassandra.options.<lcs|ucs|cairn>=k=v,...}. */
  static Map<String, String> compactionOptions(Strategy strategy, EngineSettings s) {
    Map<String, String> o = new LinkedHashMap<>();
    long sstableMib = sstableMib(s);
    switch (strategy) {
      case LCS -> {
        o.put("class", "LeveledCompactionStrategy");
        o.put("sstable_size_in_mb", Long.toString(sstableMib));
        o.put("fanout_size", Integer.toString(s.levelSizeRatio()));
      }
      case UCS -> {
        o.put("class", "UnifiedCompactionStrategy");
        o.put("target_sstable_size", sstableMib + "MiB");
      }
      case CAIRN -> {
        o.put("class", "dev.cairn.cassandra.CairnCompactionStrategy");
        o.put("sstable_size_in_mb", Long.toString(sstableMib));
        o.put("fanout_size", Integer.toString(s.levelSizeRatio()));
        long[] limits = cairnIoLimitsMb(s);
        if (limits != null) {
          o.put("io_high_limit_mb", Long.toString(limits[0]));
          o.put("io_low_limit_mb", Long.toString(limits[1]));
        }
      }
    }
    String extra = System.getProperty("cairn.cassandra.options." + strategy.optionsSuffix());
    if (extra != null && !extra.isBlank()) {
      for (String kv : extra.split(",")) {
        int eq = kv.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException("-Dcairn.cassandra.options." + strategy.optionsSuffix()
              + ": '" + kv + "' is not key=value");
        }
        o.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
      }
    }
    return o;
  }

  static long sstableMib(EngineSettings s) {
    return Math.max(1, Math.round((double) s.targetFileBytes() / MIB));
  }

  /**
   * Cairn's load limits ({@code io_high_limit_mb}, {@code io_low_limit_mb}) for periodic, or null
   * for other workloads (the strategy's defaults, as {@code cairn-table+dlc} keeps DLC's).
   *
   * <p>{@code cairn-table+dlc} sets them from the offered rates with every get costing one block
   * (Eq. 3): high at 60% of a high phase's estimate, low at twice a low phase's. The plugin with the
   * chunk cache on estimates from chunk-cache misses instead (Eq. 6, every miss costing an average
   * cached chunk: {@link #bytesPerMiss}), so the same rule is applied to the misses a phase is
   * expected to make:
   * gets × the expected miss fraction, taken as the share of the data the chunk cache cannot hold
   * ({@code 1 - cache / data}, at least 5%): a prior for uniform reads, which skewed reads beat.
   * Whole MB/s (the plugin's options are whole numbers), high at least 1, low below high.
   */
  static long[] cairnIoLimitsMb(EngineSettings s) {
    if (s.offeredHighOps() <= 0) {
      return null;
    }
    double perGet = PERIODIC_GET_FRACTION * expectedMissFraction(s) * bytesPerMiss(s);
    long high = Math.max(1, Math.round(0.6 * s.offeredHighOps() * perGet / 1e6));
    long low = Math.max(0, Math.min(high - 1, Math.round(2 * s.offeredLowOps() * perGet / 1e6)));
    return new long[] {high, low};
  }

  /** The chunk a miss loads, as the plugin charges it: the chunk of a bucket's partition. */
  static long bytesPerMiss(EngineSettings s) {
    return chunkBytes(partitionBytes(bucketRecords(s), s.valueBytes()));
  }

  /** Records per bucket: {@code -Dcairn.cassandra.bucketRecords}, or {@link #defaultBucketRecords}. */
  static int bucketRecords(EngineSettings s) {
    return Integer.getInteger("cairn.cassandra.bucketRecords",
        defaultBucketRecords(s.valueBytes(), s.targetFileBytes()));
  }

  /** The share of uniform reads the chunk cache cannot serve: {@code 1 - cache / data}, at least 5%. */
  static double expectedMissFraction(EngineSettings s) {
    double data = (double) s.records() * (Keys.KEY_BYTES + s.valueBytes());
    return data <= 0 ? 1 : Math.min(1, Math.max(0.05, 1 - s.blockCacheBytes() / data));
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
        + " AND compression = {'enabled': 'false'}"
        + " AND bloom_filter_fp_chance = " + String.format(Locale.ROOT, "%.4f", bloomFpChance(s.bloomBitsPerKey()))
        + " AND caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'}");
  }

  /** The false-positive rate of a Bloom filter with this many bits per key (0.63^bits: 10 bits, 1%). */
  static double bloomFpChance(int bitsPerKey) {
    return Math.min(0.5, Math.max(0.0001, Math.pow(0.63, bitsPerKey)));
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
    long hits = node.count(CHUNK_CACHE_METRIC + "Hits");
    long misses = node.count(CHUNK_CACHE_METRIC + "Misses");
    long compactionBytes = node.count(TABLE_METRIC + "CompactionBytesWritten");
    long device = node.processBytesWritten();
    if (!EngineMetrics.available(device)) {
      long flushed = node.count(TABLE_METRIC + "BytesFlushed");
      device = EngineMetrics.available(flushed) && EngineMetrics.available(compactionBytes)
          ? flushed + compactionBytes : EngineMetrics.UNAVAILABLE;
    }
    return new EngineMetrics(hits, misses, device, compactionBytes, EngineMetrics.UNAVAILABLE);
  }

  /** LCS and Cairn: the table's SSTables in level 0; UCS has no levels over JMX: -1. */
  @Override
  public int l0Files() {
    Object levels = node.attribute(TABLE_BEAN, "SSTableCountPerLevel");
    return levels instanceof int[] a && a.length > 0 ? a[0] : -1;
  }

  @Override
  public String loadClass() {
    if (strategy != Strategy.CAIRN) {
      return "";
    }
    Object v = node.attribute(CAIRN_BEAN, "LoadClass");
    return v == null ? "" : v.toString();
  }

  @Override
  public List<String> unhonouredSettings() {
    return unhonoured;
  }

  static List<String> unhonoured(Strategy strategy, EngineSettings s, CassandraNode.Settings n, int bucketRecords,
      String cgroupProblem) {
    List<String> u = new ArrayList<>();
    long partitionBytes = partitionBytes(bucketRecords, s.valueBytes());
    u.add("block-bytes=" + s.blockBytes() + ": Cassandra reads uncompressed SSTables in chunks of its"
        + " disk-optimization buffer (95th-percentile partition size rounded up to 4 KiB pages, at most"
        + " 64 KiB, down to a power of two for the chunk cache): about " + (chunkBytes(partitionBytes) >> 10)
        + " KiB for partitions of " + bucketRecords + " records; column_index_size=" + n.columnIndexKib()
        + "KiB is the row-index granularity within a partition");
    u.add("bloom-bits-per-key=" + s.bloomBitsPerKey() + ": bloom_filter_fp_chance="
        + String.format(Locale.ROOT, "%.4f", bloomFpChance(s.bloomBitsPerKey()))
        + " on partition keys (buckets of " + bucketRecords + " records), not on record keys");
    if (n.chunkCacheMib() * MIB != s.blockCacheBytes()) {
      u.add("block-cache-bytes=" + s.blockCacheBytes() + ": the chunk cache is whole MiB ("
          + n.chunkCacheMib() + " MiB" + (n.chunkCacheMib() == 0 ? ": off, so no hit ratio" : "") + ")");
    }
    u.add("block cache: Cassandra's chunk cache also serves (and counts, and is filled by) compaction reads;"
        + " hits and misses are node-wide (system tables included)");
    u.add(String.format(Locale.ROOT, "memtable-bytes=%d: approximated by memtable_cleanup_threshold=%.2f of"
            + " memtable_offheap_space=%dMiB (offheap_objects), which counts a little more than the rows' bytes"
            + " (smoke run at 1 MiB: 0.96 MiB flushed per flush)",
        s.memtableBytes(), n.memtableCleanupThreshold(), n.memtablePoolMib()));
    long sstableMib = sstableMib(s);
    if (sstableMib * MIB != s.targetFileBytes()) {
      u.add("target-file-bytes=" + s.targetFileBytes() + ": whole MiB (" + sstableMib + " MiB)");
    }
    switch (strategy) {
      case LCS, CAIRN -> {
        long l1 = sstableMib * MIB * s.levelSizeRatio();
        if (l1 != s.baseLevelBytes()) {
          u.add("base-level-bytes=" + s.baseLevelBytes() + ": LCS's L1 is fanout_size x sstable_size_in_mb = "
              + (l1 / MIB) + " MiB");
        }
      }
      case UCS -> {
        u.add("base-level-bytes, level-size-ratio: UCS levels by density with its defaults"
            + " (scaling_parameters T4, base_shard_count 4, min_sstable_size 100MiB, sstable_growth 0.333);"
            + " only target_sstable_size=" + sstableMib + "MiB is set");
        u.add("l0_files: UCS exposes no level counts over JMX (-1)");
      }
    }
    if (strategy == Strategy.CAIRN) {
      long[] limits = cairnIoLimitsMb(s);
      u.add(limits == null
          ? "dlc limits: the plugin's defaults (io_high_limit_mb 48, io_low_limit_mb 28), as cairn-table+dlc keeps"
              + " DLC's outside periodic"
          : "dlc limits: io_high_limit_mb=" + limits[0] + ", io_low_limit_mb=" + limits[1] + " from the offered rates,"
              + " charging each get a " + (bytesPerMiss(s) >> 10) + " KiB chunk per chunk-cache miss times an expected miss fraction of "
              + String.format(Locale.ROOT, "%.2f", expectedMissFraction(s)) + " (1 - cache/data, a prior for uniform reads)");
      u.add("dlc load: the plugin counts the node's chunk-cache misses less the chunks compactions read, as client"
          + " reads (its share by the table's reads)");
    }
    u.add("stall: Cassandra reports no write-stall time (blocked memtable writes are not counted)");
    if (s.directReads()) {
      u.add("direct-io: Cassandra 5.0.9 has no O_DIRECT reads of SSTables"
          + (cgroupProblem == null ? "; its page cache is bounded by the node's memory cgroup instead" : ""));
    }
    if (cgroupProblem != null) {
      u.add("node-page-cache-bytes=" + s.nodePageCacheBytes() + ": the node's page cache is unbounded ("
          + cgroupProblem + "), so chunk-cache misses may be page-cache hits");
    }
    s.seekDelayUnhonoured("cassandra").ifPresent(u::add);
    return List.copyOf(u);
  }

  /**
   * The bucket size: the most records per partition that keep Cassandra's chunks as small as a
   * single record's partition allows, and at least 8 KiB (7 records of 1 KiB values: 8 KiB chunks;
   * 8 records already give 16 KiB), and partitions at most 1/64 of an SSTable.
   */
  static int defaultBucketRecords(int valueBytes, long targetFileBytes) {
    int target = Math.max(8 << 10, chunkBytes(partitionBytes(1, valueBytes)));
    long maxPartition = Math.max(partitionBytes(1, valueBytes), targetFileBytes / 64);
    int n = 1;
    while (n < 1 << 16 && chunkBytes(partitionBytes(n + 1, valueBytes)) <= target
        && partitionBytes(n + 1, valueBytes) <= maxPartition) {
      n++;
    }
    return n;
  }

  /**
   * A partition's serialized size (BIG format): key length, key and deletion time (22 bytes) plus
   * an end marker, and per row about 21 bytes besides the value (flags, the bigint clustering,
   * row size, timestamp, cell flags and value length).
   */
  static long partitionBytes(int records, int valueBytes) {
    return 23 + (long) records * (valueBytes + 21);
  }

  /**
   * Cassandra's chunk size for an uncompressed SSTable whose partitions have this size: the 95th
   * percentile of its partition-size histogram (the bucket's upper bound) through the SSD
   * disk-optimization strategy, then rounded down to a power of two for the chunk cache.
   */
  static int chunkBytes(long partitionBytes) {
    // EstimatedHistogram.percentile returns the bucket's upper bound; the bounds grow by 1.2.
    long bound = 1;
    while (bound < partitionBytes) {
      long next = Math.round(bound * 1.2);
      bound = next == bound ? next + 1 : next;
    }
    // SsdDiskOptimizationStrategy.bufferSize with disk_optimization_page_cross_chance 0.1.
    long size = bound;
    if ((size % 4096) / 4096.0 - 0.1 > -1e-16) {
      size += 4096;
    }
    size = Math.min((size + 4095) & ~4095L, 1 << 16);
    // DiskOptimizationStrategy.roundForCaching, rounding down (file_cache_round_up false on ssd).
    return (int) Math.max(4096, Math.min(1 << 16, Long.highestOneBit(size)));
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
      try {
        Files.writeString(n.directory().resolve("node-summary.txt"), text, StandardCharsets.UTF_8);
      } catch (IOException e) {
        // the summary is printed anyway
      }
      System.err.print(text.lines().map(l -> "[" + strategy.engineName() + "] " + l + "\n").collect(Collectors.joining()));
    }
  }

  /** What the report has no column for: flushes, SSTables per read, chunk size, memory, Cairn's counters. */
  private String summary() {
    StringBuilder sb = new StringBuilder();
    long flushes = node.count(TABLE_METRIC + "MemtableSwitchCount");
    long flushed = node.count(TABLE_METRIC + "BytesFlushed");
    sb.append(String.format(Locale.ROOT, "compaction %s%n", compaction));
    sb.append(String.format(Locale.ROOT, "write timeouts retried %d%n", writeTimeoutsRetried.sum()));
    sb.append(String.format(Locale.ROOT, "flushes %d, %.2f MiB flushed (%.0f KiB each)%n", flushes, flushed / (double) MIB,
        flushes > 0 ? flushed / 1024.0 / flushes : Double.NaN));
    Object perRead = node.attribute(TABLE_METRIC + "SSTablesPerReadHistogram", "Mean");
    Object live = node.attribute(TABLE_METRIC + "LiveSSTableCount", "Value");
    Object levels = node.attribute(TABLE_BEAN, "SSTableCountPerLevel");
    sb.append(String.format(Locale.ROOT, "SSTables per read (mean, recent) %s; live SSTables %s; per level %s%n",
        perRead instanceof Number p ? String.format(Locale.ROOT, "%.2f", p.doubleValue()) : "n/a", live,
        levels instanceof int[] a ? java.util.Arrays.toString(a) : "n/a"));
    Object size = node.attribute(CHUNK_CACHE_METRIC + "Size", "Value");
    Object entries = node.attribute(CHUNK_CACHE_METRIC + "Entries", "Value");
    Object capacity = node.attribute(CHUNK_CACHE_METRIC + "Capacity", "Value");
    if (size instanceof Number sz && entries instanceof Number en && en.longValue() > 0) {
      sb.append(String.format(Locale.ROOT, "chunk cache %.1f of %.1f MiB, %d chunks of %.1f KiB on average%n",
          sz.doubleValue() / MIB, capacity instanceof Number c ? c.doubleValue() / MIB : Double.NaN,
          en.longValue(), sz.doubleValue() / en.longValue() / 1024));
    }
    if (strategy == Strategy.CAIRN) {
      List<String> parts = new ArrayList<>();
      for (String a : List.of("LoadClass", "ClientReadBytesPerSecond", "DelayedCompactions", "BurstyRuns",
          "ReleasesAtBound", "HotInputsSpared", "CompactionsStarted", "LastDecision")) {
        parts.add(a + "=" + node.attribute(CAIRN_BEAN, a));
      }
      sb.append("cairn ").append(String.join(", ", parts)).append('\n');
    }
    if (node.memory() != null) {
      sb.append(node.memory().summary()).append('\n');
    } else if (node.cgroupProblem() != null) {
      sb.append("no memory cgroup: ").append(node.cgroupProblem()).append('\n');
    }
    sb.append("log ").append(node.logFile()).append('\n');
    return sb.toString();
  }
}

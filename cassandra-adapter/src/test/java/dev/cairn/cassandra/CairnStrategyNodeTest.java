package dev.cairn.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidConfigurationInQueryException;
import dev.cairn.cassandra.testing.EmbeddedNode;
import dev.cairn.cassandra.testing.KvWorkload;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import javax.management.Attribute;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.db.ColumnFamilyStore;
import org.apache.cassandra.db.compaction.CompactionManager;
import org.apache.cassandra.io.sstable.format.SSTableReader;
import org.apache.cassandra.service.ActiveRepairService;
import org.apache.cassandra.utils.TimeUUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link CairnCompactionStrategy} running tables in a real node (in this JVM, driven through the
 * Java driver over the native protocol): every read checked against a reference through flushes
 * and the strategy's compactions; options refused by {@code CREATE}/{@code ALTER} with the
 * plugin's message; and, under a real read load that the load model classes as high, L0
 * compactions delayed, bursty part runs, the hard bounds, and the catch-up when the load stops.
 *
 * <p>The load is real chunk-cache misses: the node's chunk cache is 8 MiB ({@code NodeConfig})
 * and the tables hold about 12 MiB of incompressible values, read at random; the limits are set
 * to 1 MB/s so that this machine's reads are "high" and none are "low".
 */
class CairnStrategyNodeTest {
  private static final String KS = "cairn_strategy";
  private static final String CLASS = CairnCompactionStrategy.class.getName();
  private static final String UCS_CLASS = CairnUnifiedCompactionStrategy.class.getName();

  private static EmbeddedNode node;
  private static CqlSession session;

  @BeforeAll
  static void start() {
    node = EmbeddedNode.start("cairn-strategy-test");
    session = node.newSession();
    session.execute("CREATE KEYSPACE " + KS
        + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
    if (node != null) {
      node.close();
    }
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void keepsEveryWriteOverwriteAndDeleteThroughItsCompactionsAndASwitchBackToLcs()
      throws Exception {
    String table = "kv_cairn";
    session.execute("CREATE TABLE " + KS + "." + table + " (k bigint PRIMARY KEY, v blob)"
        + " WITH compaction = {'class': '" + CLASS + "', 'sstable_size_in_mb': '1'}");
    ColumnFamilyStore cfs = node.table(KS, table);
    assertEquals(CairnCompactionStrategy.class,
        cfs.getCompactionStrategyManager().getCompactionParams().klass());

    KvWorkload kv = new KvWorkload(session, KS, table, 4_000, 1_024, 20261123L);
    kv.insertRange(0, 3_000);
    node.flush(KS, table);
    for (int round = 1; round <= 5; round++) {
      kv.randomRound(1_000, 250);
      node.flush(KS, table);
      if (round == 3) {
        kv.verify(); // while compactions run
      }
    }
    node.awaitCompactions(KS, table, Duration.ofMinutes(2));
    kv.verify();

    int[] perLevel = cfs.getCompactionStrategyManager().getSSTableCountPerLevel();
    String levels = Arrays.toString(perLevel);
    assertTrue(cfs.metric.compactionBytesWritten.getCount() > 0, "no compaction ran: " + levels);
    assertTrue(Arrays.stream(perLevel).skip(1).sum() >= 2, "no leveled SSTables: " + levels);
    assertTrue(perLevel[0] < 4, "L0 left at or above its trigger with no load: " + levels);
    assertEquals(0, (int) attribute(table, "EstimatedRemainingTasks"));
    assertEquals("LOW", attribute(table, "LoadClass"));
    assertTrue((long) attribute(table, "CompactionsStarted") >= 1,
        "the strategy started " + attribute(table, "CompactionsStarted") + " compactions");
    assertEquals("NONE: low load: nothing due", attribute(table, "LastDecision"));

    // Switching back (the README's way out before removing the jar) keeps every value, and the
    // bean goes with the strategy.
    session.execute("ALTER TABLE " + KS + "." + table
        + " WITH compaction = {'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': '1'}");
    kv.verify();
    assertTrue(!mbeans().isRegistered(CairnCompactionMetrics.objectName(KS, table)),
        "the JMX bean outlived the strategy");
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void badOptionsAreRefusedWithThePluginsMessageAndChangeNothing() {
    String table = "kv_options";
    session.execute("CREATE TABLE " + KS + "." + table + " (k bigint PRIMARY KEY, v blob)"
        + " WITH compaction = {'class': '" + CLASS + "', 'max_delay_seconds': '30'}");

    InvalidConfigurationInQueryException outOfRange = assertThrows(
        InvalidConfigurationInQueryException.class,
        () -> session.execute("ALTER TABLE " + KS + "." + table + " WITH compaction = {'class': '"
            + CLASS + "', 'max_delay_seconds': '0'}"));
    assertTrue(outOfRange.getMessage().contains(
        "CairnCompactionStrategy: max_delay_seconds must be in [1, 86400], but was 0"),
        outOfRange.getMessage());

    InvalidConfigurationInQueryException crossed = assertThrows(
        InvalidConfigurationInQueryException.class,
        () -> session.execute("CREATE TABLE " + KS + ".kv_never (k bigint PRIMARY KEY, v blob)"
            + " WITH compaction = {'class': '" + CLASS + "', 'l0_compaction_trigger': '8',"
            + " 'max_l0_sstables': '6'}"));
    assertTrue(crossed.getMessage().contains("max_l0_sstables must be in [8, 1000], but was 6"),
        crossed.getMessage());

    InvalidConfigurationInQueryException unknown = assertThrows(
        InvalidConfigurationInQueryException.class,
        () -> session.execute("ALTER TABLE " + KS + "." + table + " WITH compaction = {'class': '"
            + CLASS + "', 'max_delay_secs': '10'}"));
    assertTrue(unknown.getMessage().contains(
        "Properties specified [max_delay_secs] are not understood by CairnCompactionStrategy"),
        unknown.getMessage());

    InvalidConfigurationInQueryException lcs = assertThrows(
        InvalidConfigurationInQueryException.class,
        () -> session.execute("ALTER TABLE " + KS + "." + table + " WITH compaction = {'class': '"
            + CLASS + "', 'sstable_size_in_mb': '0'}"));
    assertTrue(lcs.getMessage().contains("sstable_size_in_mb must be larger than 0"), lcs.getMessage());

    InvalidConfigurationInQueryException flat = assertThrows(
        InvalidConfigurationInQueryException.class,
        () -> session.execute("ALTER TABLE " + KS + "." + table + " WITH compaction = {'class': '"
            + CLASS + "', 'fanout_size': '1'}"));
    assertTrue(flat.getMessage().contains("needs fanout_size of at least 2"), flat.getMessage());

    assertEquals("30", node.table(KS, table).getCompactionStrategyManager().getCompactionParams()
        .options().get("max_delay_seconds"), "a refused ALTER changed the table");
    assertTrue(session.getMetadata().getKeyspace(KS).get().getTable("kv_never").isEmpty());
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void underReadLoadL0CompactionsWaitInBurstsWithinMaxL0AndCatchUpWhenTheLoadStops()
      throws Exception {
    String table = "kv_delay";
    // A part run at 4 fresh SSTables: after the first, L0 holds its output and three fresh
    // ones, at the trigger (4) but not at the part trigger, and the L0 compaction is delayed.
    KvWorkload kv = loadedTable(table, "'bursty_part_sstables': '4', 'max_l0_sstables': '10',"
        + " 'max_delay_seconds': '600'");
    ColumnFamilyStore cfs = node.table(KS, table);
    try (RandomReads reads = new RandomReads(table, 12_000)) {
      awaitTrue(() -> "HIGH".equals(attribute(table, "LoadClass")), Duration.ofSeconds(30),
          () -> "the load never turned high: " + attribute(table, "ClientReadBytesPerSecond") + " B/s");
      int maxL0 = 0;
      for (int flush = 0; flush < 12; flush++) {
        kv.randomRound(300, 20);
        node.flush(KS, table);
        Thread.sleep(300);
        maxL0 = Math.max(maxL0, l0(cfs));
      }
      assertTrue((long) attribute(table, "DelayedCompactions") >= 1, "no L0 compaction was delayed");
      assertTrue((long) attribute(table, "BurstyRuns") >= 1, "no bursty run");
      assertTrue(maxL0 <= 10, "L0 grew past max_l0_sstables: " + maxL0);
      assertTrue(reads.count() > 0 && reads.errors() == 0, reads.toString());
    }
    // No reads: low after two quiet intervals, and the delayed work runs.
    awaitTrue(() -> "LOW".equals(attribute(table, "LoadClass")), Duration.ofSeconds(30),
        () -> "the load never turned low");
    node.awaitCompactions(KS, table, Duration.ofMinutes(1));
    assertTrue(l0(cfs) < 4, "L0 not caught up: " + Arrays.toString(
        cfs.getCompactionStrategyManager().getSSTableCountPerLevel()));
    kv.verify();
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aDelayedL0CompactionRunsAtMaxDelayEvenUnderLoad() throws Exception {
    String table = "kv_bound";
    // Bursts effectively off (a part run needs 100 fresh SSTables): only the time bound can act.
    KvWorkload kv = loadedTable(table, "'bursty_part_sstables': '100', 'max_l0_sstables': '100',"
        + " 'max_delay_seconds': '3'");
    ColumnFamilyStore cfs = node.table(KS, table);
    try (RandomReads reads = new RandomReads(table, 12_000)) {
      awaitTrue(() -> "HIGH".equals(attribute(table, "LoadClass")), Duration.ofSeconds(30),
          () -> "the load never turned high");
      for (int flush = 0; flush < 5; flush++) {
        kv.randomRound(300, 20);
        node.flush(KS, table);
      }
      assertTrue(l0(cfs) >= 4, "the L0 compaction was not held back: " + l0(cfs));
      // nodetool compactionstats shows the delayed compaction as pending.
      assertTrue(cfs.getCompactionStrategyManager().getEstimatedRemainingTasks() >= 1,
          "a delayed compaction is not reported as pending");
      awaitTrue(() -> (long) attribute(table, "ReleasesAtBound") >= 1, Duration.ofSeconds(60),
          () -> "no release at the bound; delay " + attribute(table, "CurrentDelayMillis") + " ms");
      awaitTrue(() -> l0(cfs) < 4, Duration.ofSeconds(60), () -> "L0 still " + l0(cfs));
      assertEquals("HIGH", attribute(table, "LoadClass"), "the release must not wait for the load");
      assertTrue(reads.errors() == 0, reads.toString());
    }
    kv.verify();
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aDryRunCompactsAsLcsAndOnlyReportsCairnsDecisions() throws Exception {
    String table = "kv_dry";
    session.execute("CREATE TABLE " + KS + "." + table + " (k bigint PRIMARY KEY, v blob)"
        + " WITH compaction = {'class': '" + CLASS + "', 'sstable_size_in_mb': '1',"
        + " 'dry_run': 'true'}");
    ColumnFamilyStore cfs = node.table(KS, table);
    KvWorkload kv = new KvWorkload(session, KS, table, 2_000, 1_024, 3L);
    for (int flush = 0; flush < 5; flush++) {
      kv.randomRound(1_000, 100);
      node.flush(KS, table);
    }
    node.awaitCompactions(KS, table, Duration.ofMinutes(1));
    kv.verify();
    assertEquals(true, attribute(table, "DryRun"));
    assertEquals(0L, attribute(table, "CompactionsStarted"), "a dry run started a compaction");
    assertTrue(cfs.metric.compactionBytesWritten.getCount() > 0, "LCS did not compact");
    assertTrue(((String) attribute(table, "LastDecision")).contains("low load"),
        "no decision reported: " + attribute(table, "LastDecision"));
  }

  /**
   * A legacy secondary index's table takes its base table's compaction, Cairn's, but keys by
   * LocalPartitioner, whose tokens Cairn's model cannot read: its instances run LCS's decisions,
   * so the index compacts and answers queries.
   */
  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void aLegacySecondaryIndexCompactsOnLcsDecisionsAndAnswers() throws Exception {
    String table = "kv_indexed";
    session.execute("CREATE TABLE " + KS + "." + table + " (k bigint PRIMARY KEY, g int, v blob)"
        + " WITH compaction = {'class': '" + CLASS + "', 'sstable_size_in_mb': '1'}");
    session.execute("CREATE INDEX " + table + "_g ON " + KS + "." + table + " (g)");
    ColumnFamilyStore index = node.table(KS, table).indexManager.getAllIndexColumnFamilyStores().iterator().next();
    PreparedStatement insert = session.prepare("INSERT INTO " + KS + "." + table + " (k, g, v) VALUES (?, ?, ?)");
    int flushes = 6;
    for (int flush = 0; flush < flushes; flush++) {
      for (long k = flush * 200L; k < (flush + 1) * 200L; k++) {
        session.execute(insert.bind(k, (int) (k % 10), ByteBuffer.wrap(new byte[100])));
      }
      node.flush(KS, table); // the index's table flushes with its base
    }
    var strategy = index.getCompactionStrategyManager().getStrategies().get(1).get(0);
    assertTrue(strategy instanceof CairnCompactionStrategy, "the index's table runs the base table's strategy class");
    awaitTrue(() -> {
      CompactionManager.instance.submitBackground(index);
      return index.getLiveSSTables().size() < flushes;
    }, Duration.ofSeconds(60),
        () -> "the index's table never compacted: " + index.getLiveSSTables().size() + " SSTables");
    assertEquals(flushes * 20, session.execute("SELECT k FROM " + KS + "." + table + " WHERE g = 3").all().size());
    // LCS decided, not a fallback from a failing Cairn decision.
    assertEquals("none yet", ((CairnCompactionStrategy) strategy).snapshot().lastDecision());
  }

  /**
   * Cassandra drops a pending repair session's strategy instance, without shutting it down, once
   * the session's SSTables move on; the instance then stops ticking and leaves the table's bean,
   * rather than running for the node's life. The instance starts as Cassandra starts it, with the
   * table's strategies (here an ALTER); the SSTable moves back to unrepaired as a failed
   * session's do.
   */
  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void aPendingRepairSessionsInstanceLeavesOnceCassandraDropsIt() throws Exception {
    String table = "kv_pending";
    // Compactions off: else Cassandra would move the SSTables of the unknown session back at once.
    String compaction = " WITH compaction = {'class': '" + CLASS + "', 'enabled': 'false', 'load_interval_ms': '%d'}";
    session.execute("CREATE TABLE " + KS + "." + table + " (k bigint PRIMARY KEY, v blob)" + compaction.formatted(200));
    ColumnFamilyStore cfs = node.table(KS, table);
    KvWorkload kv = new KvWorkload(session, KS, table, 500, 256, 9L);
    kv.randomRound(500, 0);
    node.flush(KS, table);
    List<SSTableReader> sstables = List.copyOf(cfs.getLiveSSTables());
    int settled = (Integer) attribute(table, "Instances");
    cfs.getCompactionStrategyManager().mutateRepaired(sstables, ActiveRepairService.UNREPAIRED_SSTABLE,
        TimeUUID.Generator.nextTimeUUID(), false);
    session.execute("ALTER TABLE " + KS + "." + table + compaction.formatted(250)); // starts every instance
    awaitTrue(() -> (Integer) attribute(table, "Instances") == settled + 1, Duration.ofSeconds(30),
        () -> "the pending repair set's instance never reported: " + attribute(table, "Instances") + " instances");

    cfs.getCompactionStrategyManager().mutateRepaired(sstables, ActiveRepairService.UNREPAIRED_SSTABLE,
        ActiveRepairService.NO_PENDING_REPAIR, false);
    awaitTrue(() -> (Integer) attribute(table, "Instances") == settled, Duration.ofSeconds(30),
        () -> "the dropped instance still reports: " + attribute(table, "Instances") + " instances, " + settled + " before");
    kv.verify();
  }

  /**
   * The README's trial on one node: on the table's bean as Cassandra names it, the attribute
   * {@code CompactionParametersJson} set to the whole map with the strategy's class switches this
   * node's table to it (options kept), and the table's next ALTER of its compaction puts the
   * schema's back.
   */
  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void theReadmesTrialSwitchesOneNodeThroughTheTablesBean() throws Exception {
    String table = "kv_trial";
    session.execute("CREATE TABLE " + KS + "." + table + " (k bigint PRIMARY KEY, v blob)"
        + " WITH compaction = {'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': '1'}");
    ColumnFamilyStore cfs = node.table(KS, table);
    ObjectName tables = new ObjectName("org.apache.cassandra.db:type=Tables,keyspace=" + KS + ",table=" + table);
    mbeans().setAttribute(tables, new Attribute("CompactionParametersJson",
        "{\"class\": \"" + CLASS + "\", \"sstable_size_in_mb\": \"1\"}"));
    assertEquals(CairnCompactionStrategy.class, cfs.getCompactionStrategyManager().getCompactionParams().klass());
    assertEquals("1", cfs.getCompactionStrategyManager().getCompactionParams().options().get("sstable_size_in_mb"));
    assertEquals("LOW", attribute(table, "LoadClass"), "the plugin's bean is up under its documented name");
    session.execute("ALTER TABLE " + KS + "." + table
        + " WITH compaction = {'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': '2'}");
    assertEquals("org.apache.cassandra.db.compaction.LeveledCompactionStrategy",
        cfs.getCompactionStrategyManager().getCompactionParams().klass().getName());
  }

  /**
   * On UCS: every write, overwrite and delete kept through UCS's compactions at low load, UCS's
   * options taken as UCS takes them, Cairn's options that apply to LCS only refused by name.
   */
  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void onUcsKeepsEveryWriteThroughItsCompactionsAndRefusesLcsOnlyOptions() throws Exception {
    String table = "kv_ucs";
    session.execute("CREATE TABLE " + KS + "." + table + " (k bigint PRIMARY KEY, v blob)"
        + " WITH compaction = {'class': '" + UCS_CLASS + "', 'scaling_parameters': 'T4', 'max_delay_seconds': '30'}");
    ColumnFamilyStore cfs = node.table(KS, table);
    assertEquals(CairnUnifiedCompactionStrategy.class,
        cfs.getCompactionStrategyManager().getCompactionParams().klass());
    KvWorkload kv = new KvWorkload(session, KS, table, 4_000, 1_024, 20261204L);
    kv.insertRange(0, 3_000);
    node.flush(KS, table);
    for (int round = 1; round <= 6; round++) {
      kv.randomRound(1_000, 250);
      node.flush(KS, table);
    }
    node.awaitCompactions(KS, table, Duration.ofMinutes(2));
    kv.verify();
    assertTrue(cfs.metric.compactionBytesWritten.getCount() > 0, "UCS did not compact");
    assertEquals("LOW", attribute(table, "LoadClass"));
    assertTrue((long) attribute(table, "CompactionsStarted") >= 1,
        "the strategy started " + attribute(table, "CompactionsStarted") + " compactions");
    assertEquals(0L, attribute(table, "DelayedCompactions"), "a delay at low load");

    InvalidConfigurationInQueryException lcsOnly = assertThrows(InvalidConfigurationInQueryException.class,
        () -> session.execute("ALTER TABLE " + KS + "." + table + " WITH compaction = {'class': '" + UCS_CLASS
            + "', 'bursty_part_sstables': '4'}"));
    assertTrue(lcsOnly.getMessage().contains(
        "CairnUnifiedCompactionStrategy: bursty_part_sstables applies to CairnCompactionStrategy (on LCS) only"),
        lcsOnly.getMessage());
    InvalidConfigurationInQueryException outOfRange = assertThrows(InvalidConfigurationInQueryException.class,
        () -> session.execute("ALTER TABLE " + KS + "." + table + " WITH compaction = {'class': '" + UCS_CLASS
            + "', 'max_delay_seconds': '0'}"));
    assertTrue(outOfRange.getMessage().contains("max_delay_seconds must be in [1, 86400], but was 0"),
        outOfRange.getMessage());
    InvalidConfigurationInQueryException unknown = assertThrows(InvalidConfigurationInQueryException.class,
        () -> session.execute("ALTER TABLE " + KS + "." + table + " WITH compaction = {'class': '" + UCS_CLASS
            + "', 'sstable_size_in_mb': '1'}"));
    assertTrue(unknown.getMessage().contains("[sstable_size_in_mb] are not understood"), unknown.getMessage());
    assertEquals("30", cfs.getCompactionStrategyManager().getCompactionParams().options().get("max_delay_seconds"),
        "a refused ALTER changed the table");
  }

  /**
   * On UCS under a read load the load model classes as high: level 0's compaction waits, is
   * released when level 0's overlap reaches {@code max_l0_sstables}, and what waited runs once
   * the load stops.
   */
  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void onUcsUnderReadLoadLevel0WaitsWithinItsBoundAndCatchesUp() throws Exception {
    String table = "kv_ucs_delay";
    session.execute("CREATE TABLE " + KS + "." + table + " (k bigint PRIMARY KEY, v blob)"
        + " WITH compaction = {'class': '" + UCS_CLASS + "', 'scaling_parameters': 'T4',"
        + " 'load_interval_ms': '200', 'io_high_limit_mb': '1', 'io_low_limit_mb': '1', 'softness': '2',"
        + " 'max_l0_sstables': '7', 'max_delay_seconds': '600'}");
    KvWorkload kv = new KvWorkload(session, KS, table, 12_000, 1_024, 11L);
    kv.insertRange(0, 12_000);
    node.flush(KS, table);
    node.awaitCompactions(KS, table, Duration.ofMinutes(1));
    ColumnFamilyStore cfs = node.table(KS, table);
    try (RandomReads reads = new RandomReads(table, 12_000)) {
      awaitTrue(() -> "HIGH".equals(attribute(table, "LoadClass")), Duration.ofSeconds(30),
          () -> "the load never turned high: " + attribute(table, "ClientReadBytesPerSecond") + " B/s");
      for (int flush = 0; flush < 10; flush++) {
        kv.randomRound(300, 20);
        node.flush(KS, table);
        Thread.sleep(300);
      }
      assertTrue((long) attribute(table, "DelayedCompactions") >= 1,
          "no level-0 compaction was delayed: " + attribute(table, "LastDecision"));
      awaitTrue(() -> (long) attribute(table, "ReleasesAtBound") >= 1, Duration.ofSeconds(30),
          () -> "no release at max_l0_sstables: " + attribute(table, "LastDecision"));
      assertTrue(reads.count() > 0 && reads.errors() == 0, reads.toString());
    }
    awaitTrue(() -> "LOW".equals(attribute(table, "LoadClass")), Duration.ofSeconds(30),
        () -> "the load never turned low");
    node.awaitCompactions(KS, table, Duration.ofMinutes(1));
    assertEquals(0L, attribute(table, "CurrentDelayMillis"), "a delay outlived the load");
    kv.verify();
  }

  /** A table on the strategy with fast load sampling and 1 MB/s limits, 12,000 x 1 KiB, settled. */
  private static KvWorkload loadedTable(String table, String extraOptions) throws Exception {
    session.execute("CREATE TABLE " + KS + "." + table + " (k bigint PRIMARY KEY, v blob)"
        + " WITH compaction = {'class': '" + CLASS + "', 'sstable_size_in_mb': '2',"
        + " 'load_interval_ms': '200', 'io_high_limit_mb': '1', 'io_low_limit_mb': '1',"
        + " 'softness': '2', " + extraOptions + "}");
    KvWorkload kv = new KvWorkload(session, KS, table, 12_000, 1_024, 7L);
    kv.insertRange(0, 12_000);
    node.flush(KS, table);
    node.awaitCompactions(KS, table, Duration.ofMinutes(1));
    return kv;
  }

  private static int l0(ColumnFamilyStore cfs) {
    return cfs.getCompactionStrategyManager().getSSTableCountPerLevel()[0];
  }

  /** An attribute of the table's bean, found by the name the README gives an operator. */
  private static Object attribute(String table, String name) {
    try {
      return mbeans().getAttribute(
          new ObjectName("dev.cairn.cassandra:type=CairnCompaction,keyspace=" + KS + ",table=" + table), name);
    } catch (Exception e) {
      throw new AssertionError("JMX " + name + " of " + table, e);
    }
  }

  private static MBeanServer mbeans() {
    return ManagementFactory.getPlatformMBeanServer();
  }

  /**
   * Warming on UCS: after a major compaction, the partitions read last before it are read from the
   * chunk cache, where a table that does not warm reads every one of them from the device. Every
   * key was read, so the key cache holds far more partitions than the chunk cache holds chunks,
   * and the budget (1 MiB, 64 chunks of about 250) leaves room for the hottest only.
   */
  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void onUcsAWarmedOutputServesThePartitionsReadBeforeItsCompactionFromTheChunkCache() throws Exception {
    int hotReads = 40;
    long warmMisses = missesOfHotReadsAfterMajorCompaction("kv_warm", "true", hotReads);
    long coldMisses = missesOfHotReadsAfterMajorCompaction("kv_cold", "false", hotReads);

    assertTrue(warmMisses <= hotReads / 8, warmMisses + " chunk-cache misses of " + hotReads
        + " hot reads after a warmed compaction (" + attribute("kv_warm", "LastWarm") + ")");
    assertTrue(coldMisses >= hotReads / 2, coldMisses + " chunk-cache misses of " + hotReads
        + " hot reads without warming: the test does not tell warming from its absence");
    assertTrue((long) attribute("kv_warm", "WarmedChunks") >= hotReads / 2,
        "warmed " + attribute("kv_warm", "WarmedChunks") + " chunks");
    assertTrue(((String) attribute("kv_cold", "LastWarm")).contains("skipped: OFF"),
        (String) attribute("kv_cold", "LastWarm"));
  }

  /**
   * Four flushes of 1,000 incompressible 1 KiB values, {@code hotReads} of them read (key cache
   * and chunk cache), a major compaction, then the chunk-cache misses of reading them again.
   */
  private long missesOfHotReadsAfterMajorCompaction(String table, String warm, int hotReads) throws Exception {
    session.execute("CREATE TABLE " + KS + "." + table + " (k bigint PRIMARY KEY, v blob)"
        + " WITH compaction = {'class': '" + UCS_CLASS + "', 'warm_output': '" + warm + "', 'warm_budget_mb': '1'}");
    ColumnFamilyStore cfs = node.table(KS, table);
    cfs.disableAutoCompaction();
    KvWorkload kv = new KvWorkload(session, KS, table, 4_000, 1_024, 7L);
    for (int part = 0; part < 4; part++) {
      kv.insertRange(part * 1_000L, (part + 1) * 1_000L);
      node.flush(KS, table);
    }
    PreparedStatement select = session.prepare("SELECT v FROM " + KS + "." + table + " WHERE k = ?");
    long[] hot = new long[hotReads];
    java.util.Set<Long> hotKeys = new java.util.HashSet<>();
    for (int i = 0; i < hotReads; i++) {
      hot[i] = i * 97L; // spread over the key space: about 40 distinct chunks of about 250
      hotKeys.add(hot[i]);
    }
    // Every other key read first: 4,000 key-cache entries against 512 chunks of chunk cache. Then
    // the hot ones, the partitions read last: the key cache ranks those first.
    List<CompletableFuture<?>> reads = new ArrayList<>();
    for (long k = 0; k < 4_000; k++) {
      if (!hotKeys.contains(k)) {
        reads.add(session.executeAsync(select.bind(k)).toCompletableFuture());
      }
      if (reads.size() == 32 || k == 3_999) {
        CompletableFuture.allOf(reads.toArray(new CompletableFuture<?>[0])).get();
        reads.clear();
      }
    }
    for (long k : hot) {
      session.execute(select.bind(k));
    }
    // Early opening every MiB, as a big compaction at the default 50 MiB would (an early reader's
    // close drops its file's cached chunks): the table that warms must open nothing early.
    int openInterval = DatabaseDescriptor.getSSTablePreemptiveOpenIntervalInMiB();
    DatabaseDescriptor.setSSTablePreemptiveOpenIntervalInMiB(1);
    try {
      cfs.forceMajorCompaction();
    } finally {
      DatabaseDescriptor.setSSTablePreemptiveOpenIntervalInMiB(openInterval);
    }
    String settled = warm.equals("true") ? "WarmedCompactions" : "WarmsSkipped";
    awaitTrue(() -> (long) attribute(table, settled) >= 1, Duration.ofSeconds(30),
        () -> table + ": no warming settled: " + attribute(table, "LastWarm"));
    long before = org.apache.cassandra.cache.ChunkCache.instance.metrics.misses.getCount();
    for (long k : hot) {
      assertEquals(1, session.execute(select.bind(k)).all().size(), "key " + k);
    }
    long misses = org.apache.cassandra.cache.ChunkCache.instance.metrics.misses.getCount() - before;
    kv.verify();
    return misses;
  }

  private static void awaitTrue(BooleanSupplier condition, Duration timeout,
      java.util.function.Supplier<String> message) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(message.get());
      }
      Thread.sleep(100);
    }
  }

  /** Random point reads through the driver, 16 in flight, until closed. */
  private static final class RandomReads implements AutoCloseable {
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final Thread thread;

    RandomReads(String table, int keys) {
      PreparedStatement select = session.prepare("SELECT v FROM " + KS + "." + table + " WHERE k = ?");
      Semaphore inFlight = new Semaphore(16);
      thread = new Thread(() -> {
        Random random = new Random(1);
        while (running.get()) {
          inFlight.acquireUninterruptibly();
          CompletionStage<?> read = session.executeAsync(select.bind((long) random.nextInt(keys)));
          read.whenComplete((rs, e) -> {
            (e == null ? count : errors).incrementAndGet();
            inFlight.release();
          });
        }
        inFlight.acquireUninterruptibly(16);
      }, "random-reads");
      thread.start();
    }

    long count() {
      return count.get();
    }

    long errors() {
      return errors.get();
    }

    @Override
    public void close() throws InterruptedException {
      running.set(false);
      thread.join();
    }

    @Override
    public String toString() {
      return count + " reads, " + errors + " errors";
    }
  }
}

package dev.cairn.cassandra.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three nodes on 127.0.0.1-3 in child JVMs with the plugin jar installed as an operator installs
 * it (the only Cairn classes on each node's class path), a table at replication factor 3 switched
 * from LCS to Cairn's strategy with the README's CQL, and a load writing and reading at QUORUM
 * against a reference ({@link QuorumLoad}) while the cluster goes through what operators run:
 * full and incremental repair (which split a table's SSTables into repaired, unrepaired and
 * pending-repair sets, each a strategy instance of its own), a drain and restart (the restarted
 * node loads the strategy named by the schema from the jar), and switching the table between
 * Cairn's two strategies, UCS and LCS. No acknowledged write may be lost and no read may return a
 * value the table cannot hold.
 *
 * <p>The small form runs in {@code mvn verify}. The full form ({@code -Dcairn.cluster.full=true},
 * docs/testing.md) adds a major compaction, cleanup, {@code upgradesstables} and scrub, restarts
 * every node in turn, bootstraps a fourth node (streaming), cleans up after it and decommissions
 * it.
 */
class ClusterIT {
  private static final String KS = "cairn_cluster";
  private static final String TABLE = "kv";
  private static final String T = KS + "." + TABLE;
  /** The README's switch. */
  private static final String CAIRN_LCS = "{'class': 'dev.cairn.cassandra.CairnCompactionStrategy'}";
  private static final String CAIRN_UCS = "{'class': 'dev.cairn.cassandra.CairnUnifiedCompactionStrategy',"
      + " 'scaling_parameters': 'T4', 'warm_output': 'true'}";
  private static final String CAIRN_LCS_CLASS = "dev.cairn.cassandra.CairnCompactionStrategy";
  private static final String CAIRN_UCS_CLASS = "dev.cairn.cassandra.CairnUnifiedCompactionStrategy";
  private static final String LCS = "{'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': '1'}";
  private static final String UCS = "{'class': 'UnifiedCompactionStrategy', 'scaling_parameters': 'T4'}";
  private static final String BEAN = "dev.cairn.cassandra:type=CairnCompaction,keyspace=" + KS + ",table=" + TABLE;

  private final boolean full = Boolean.getBoolean("cairn.cluster.full");
  private final List<String> steps = new ArrayList<>();

  @Test
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  void noAcknowledgedWriteIsLostThroughRepairsRestartsRewritesAndSwitchesWithThePluginActive() throws Exception {
    Path jar = PluginJar.fromFailsafe();
    try (TestCluster cluster = TestCluster.create("cluster-it", List.of(jar))) {
      long t0 = System.nanoTime();
      cluster.startFounders();
      step(TestCluster.FOUNDERS + " founders up, the seed first", t0);
      for (ChildNode node : cluster.nodes()) {
        checkInstall(cluster, node, jar);
      }
      try (CqlSession session = cluster.newSession()) {
        checkVersion(session);
        session.execute("CREATE KEYSPACE " + KS
            + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
        session.execute("CREATE TABLE " + T + " (k bigint PRIMARY KEY, v blob) WITH compaction = " + LCS);
        assertTrue(session.checkSchemaAgreement(), "schema disagreement after CREATE");
        QuorumLoad load = new QuorumLoad(session, KS, TABLE, 4_000, 512, 300, Long.getLong("cairn.seed", 11L));
        try {
          operations(cluster, session);
        } finally {
          load.close();
        }
        t0 = System.nanoTime();
        load.verifyAll();
        step("every key read at QUORUM", t0);
        System.out.println("cluster: " + String.join("; ", steps));
        System.out.println("cluster load: " + load);
        assertEquals(0, load.violations(), load + "; first: " + load.firstViolations());
        assertTrue(load.acknowledgedWrites() > 1_000, "too little load to mean anything: " + load);
      }
    }
  }

  private void operations(TestCluster cluster, CqlSession session) throws Exception {
    List<ChildNode> founders = cluster.nodes();
    long t0 = System.nanoTime();
    flushAll(cluster);
    switchTo(cluster, session, CAIRN_LCS);
    for (ChildNode node : founders) {
      assertPluginRuns(cluster, node, CAIRN_LCS_CLASS);
    }
    flushAll(cluster);
    switchTo(cluster, session, CAIRN_UCS);
    for (int round = 0; round < 4; round++) {
      flushAll(cluster);
    }
    for (ChildNode node : founders) {
      assertPluginRuns(cluster, node, CAIRN_UCS_CLASS);
      // UCS (T4) finds four overlapping flushes and Cairn's strategy hands the compaction out;
      // its output is warmed, or the warming says why not.
      awaitCount(cluster, node, "CompactionsStarted");
      awaitCount(cluster, node, "WarmedCompactions", "WarmsSkipped");
    }
    step("switched from LCS to Cairn on LCS (the README's CQL), then on UCS, with flushes and compactions", t0);
    if (full) {
      t0 = System.nanoTime();
      cluster.nodetool(founders.get(0), "compact", KS, TABLE);
      step("major compaction", t0);
    }

    t0 = System.nanoTime();
    cluster.nodetool(founders.get(0), "repair", "-full", KS);
    step("full repair", t0);
    t0 = System.nanoTime();
    cluster.nodetool(founders.get(1), "repair", KS);
    flushAll(cluster);
    step("incremental repair", t0);

    ChildNode third = founders.get(2);
    if (full) {
      t0 = System.nanoTime();
      cluster.nodetool(third, "cleanup", KS);
      cluster.nodetool(third, "upgradesstables", "-a", KS, TABLE);
      cluster.nodetool(third, "scrub", KS, TABLE);
      step("cleanup, upgradesstables -a, scrub", t0);
    }

    for (ChildNode node : full ? founders : List.of(third)) {
      t0 = System.nanoTime();
      cluster.nodetool(node, "drain");
      node.stop();
      node.start();
      assertPluginRuns(cluster, node, CAIRN_UCS_CLASS);
      step("drain and restart of " + node.config().address(), t0);
    }

    t0 = System.nanoTime();
    switchTo(cluster, session, UCS);
    flushAll(cluster);
    switchTo(cluster, session, LCS);
    flushAll(cluster);
    switchTo(cluster, session, CAIRN_UCS);
    for (ChildNode node : founders) {
      assertPluginRuns(cluster, node, CAIRN_UCS_CLASS);
    }
    step("switched to UCS, to LCS and back to Cairn on UCS", t0);

    if (full) {
      t0 = System.nanoTime();
      ChildNode fourth = cluster.startNextNode();
      checkInstall(cluster, fourth, PluginJar.fromFailsafe());
      assertPluginRuns(cluster, fourth, CAIRN_UCS_CLASS);
      step("bootstrap of " + fourth.config().address(), t0);
      t0 = System.nanoTime();
      for (ChildNode node : founders) {
        cluster.nodetool(node, "cleanup", KS);
      }
      step("cleanup after the bootstrap", t0);
      t0 = System.nanoTime();
      cluster.nodetool(fourth, "decommission");
      fourth.stop();
      step("decommission of " + fourth.config().address(), t0);
    }
  }

  /** ALTERs the table's compaction and waits for the schema to agree. */
  private static void switchTo(TestCluster cluster, CqlSession session, String compaction) {
    session.execute("ALTER TABLE " + T + " WITH compaction = " + compaction);
    assertTrue(session.checkSchemaAgreement(), "schema disagreement after switching to " + compaction);
  }

  /** Flushes the table on every running node. */
  private static void flushAll(TestCluster cluster) throws Exception {
    for (ChildNode node : cluster.nodes()) {
      if (node.isRunning()) {
        cluster.flush(node, KS, TABLE);
      }
    }
  }

  /** The node runs {@code strategyClass} for the table: the table's parameters name it, and Cairn's bean answers. */
  private static void assertPluginRuns(TestCluster cluster, ChildNode node, String strategyClass) throws Exception {
    String params = (String) cluster.attribute(node,
        "org.apache.cassandra.db:type=Tables,keyspace=" + KS + ",table=" + TABLE, "CompactionParametersJson");
    assertTrue(params.contains("\"" + strategyClass + "\""), node.config().address() + " runs " + params);
    Object load = cluster.attribute(node, BEAN, "LoadClass");
    assertTrue("LOW".equals(load) || "HIGH".equals(load), node.config().address() + ": LoadClass " + load);
  }

  /** Waits (a minute at most) until the sum of the node's Cairn bean attributes is at least 1. */
  private static void awaitCount(TestCluster cluster, ChildNode node, String... attributes) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (true) {
      long sum = 0;
      for (String a : attributes) {
        sum += (long) cluster.attribute(node, BEAN, a);
      }
      if (sum >= 1) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(node.config().address() + ": " + String.join(" + ", attributes)
            + " still 0 after a minute; last decision " + cluster.attribute(node, BEAN, "LastDecision"));
      }
      Thread.sleep(200);
    }
  }

  /** Cassandra 5.0.9 answers. */
  private static void checkVersion(CqlSession session) {
    Row local = session.execute("SELECT data_center, release_version FROM system.local").one();
    assertEquals(NodeConfig.DATACENTER, local.getString("data_center"));
    assertEquals("5.0.9", local.getString("release_version"));
  }

  /** The plugin jar is the only entry with Cairn classes on the node's class path (read over JMX). */
  private static void checkInstall(TestCluster cluster, ChildNode node, Path jar) throws Exception {
    String classPath = (String) cluster.attribute(node, "java.lang:type=Runtime", "ClassPath");
    List<String> entries = Arrays.asList(classPath.split(File.pathSeparator));
    assertTrue(entries.contains(jar.toAbsolutePath().toString()), node.config().address() + ": plugin jar missing: "
        + entries);
    List<String> cairn = new ArrayList<>();
    for (String e : entries) {
      if (ChildNode.holdsCairnClasses(Path.of(e))) {
        cairn.add(e);
      }
    }
    assertEquals(List.of(jar.toAbsolutePath().toString()), cairn,
        node.config().address() + ": Cairn classes on the class path other than the plugin jar");
  }

  private void step(String what, long startNanos) {
    String line = String.format(Locale.ROOT, "%s in %.1f s", what, (System.nanoTime() - startNanos) / 1e9);
    steps.add(line);
    System.out.println("cluster: " + line);
  }
}

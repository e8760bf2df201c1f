package dev.cairn.cassandra.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three nodes on 127.0.0.1-3 in child JVMs with the plugin jar installed as an operator installs
 * it, a table at replication factor 3 on Cairn's strategy, and a load writing and reading at QUORUM
 * against a reference ({@link QuorumLoad}) while the cluster goes through what operators run:
 * flushes and a major compaction, full and incremental repair (which split a table's SSTables into
 * repaired, unrepaired and pending-repair sets, each a strategy instance of its own), cleanup,
 * {@code upgradesstables}, scrub, a rolling restart with drain, and switching the table to UCS, to
 * LCS and back to each of the plugin's strategies. No acknowledged write may be lost and no read
 * may return a value the table cannot hold.
 *
 * <p>The small form runs in {@code mvn verify}: one node restarted. The full form ({@code
 * -Dcairn.cluster.full=true}, docs/testing.md) restarts every node in turn, bootstraps a fourth
 * node (streaming) and decommissions it.
 */
class ClusterIT {
  private static final String KS = "cairn_cluster";
  private static final String TABLE = "kv";
  private static final String CAIRN_UCS = "{'class': 'dev.cairn.cassandra.CairnUnifiedCompactionStrategy',"
      + " 'scaling_parameters': 'T4'}";
  private static final String CAIRN_LCS = "{'class': 'dev.cairn.cassandra.CairnCompactionStrategy',"
      + " 'sstable_size_in_mb': '1'}";
  private static final String BEAN = "dev.cairn.cassandra:type=CairnCompaction,keyspace=" + KS + ",table=" + TABLE;

  private final boolean full = Boolean.getBoolean("cairn.cluster.full");
  private final List<String> steps = new ArrayList<>();

  @Test
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  void noAcknowledgedWriteIsLostThroughRepairsRestartsRewritesAndSwitchesWithThePluginActive() throws Exception {
    Path jar = PluginJar.fromFailsafe();
    try (TestCluster cluster = TestCluster.create("cluster-it", List.of(jar))) {
      for (int i = 0; i < TestCluster.FOUNDERS; i++) {
        long t0 = System.nanoTime();
        ChildNode node = cluster.startNextNode();
        step("node " + node.config().address() + " up", t0);
      }
      try (CqlSession session = cluster.newSession()) {
        session.execute("CREATE KEYSPACE " + KS
            + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
        session.execute("CREATE TABLE " + KS + "." + TABLE + " (k bigint PRIMARY KEY, v blob)"
            + " WITH compaction = " + CAIRN_UCS);
        assertTrue(session.checkSchemaAgreement(), "schema disagreement after CREATE");
        QuorumLoad load = new QuorumLoad(session, KS, TABLE, 4_000, 512, 300, Long.getLong("cairn.seed", 11L));
        try {
          operations(cluster, session);
        } finally {
          load.close();
        }
        long t0 = System.nanoTime();
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
    for (int round = 0; round < 4; round++) {
      for (ChildNode node : founders) {
        cluster.nodetool(node, "flush", KS, TABLE);
      }
    }
    for (ChildNode node : founders) {
      assertPluginRuns(cluster, node);
    }
    cluster.nodetool(founders.get(0), "compact", KS, TABLE);
    step("4 flushes on each node and a major compaction", t0);

    t0 = System.nanoTime();
    cluster.nodetool(founders.get(0), "repair", "-full", KS);
    step("full repair", t0);
    t0 = System.nanoTime();
    cluster.nodetool(founders.get(1), "repair", KS);
    for (ChildNode node : founders) {
      cluster.nodetool(node, "flush", KS, TABLE);
    }
    step("incremental repair", t0);

    t0 = System.nanoTime();
    ChildNode third = founders.get(2);
    cluster.nodetool(third, "cleanup", KS);
    cluster.nodetool(third, "upgradesstables", "-a", KS, TABLE);
    cluster.nodetool(third, "scrub", KS, TABLE);
    step("cleanup, upgradesstables -a, scrub", t0);

    for (ChildNode node : full ? founders : List.of(third)) {
      t0 = System.nanoTime();
      cluster.nodetool(node, "drain");
      node.stop();
      node.start();
      step("drain and restart of " + node.config().address(), t0);
    }

    t0 = System.nanoTime();
    switchTo(cluster, session, "{'class': 'UnifiedCompactionStrategy', 'scaling_parameters': 'T4'}");
    switchTo(cluster, session, "{'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': '1'}");
    switchTo(cluster, session, CAIRN_LCS);
    switchTo(cluster, session, CAIRN_UCS);
    for (ChildNode node : founders) {
      assertPluginRuns(cluster, node);
    }
    step("switched to UCS, LCS, Cairn on LCS, Cairn on UCS", t0);

    if (full) {
      t0 = System.nanoTime();
      ChildNode fourth = cluster.startNextNode();
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

  /** ALTERs the table's compaction, waits for the schema to agree, and flushes every running node under it. */
  private static void switchTo(TestCluster cluster, CqlSession session, String compaction) throws Exception {
    session.execute("ALTER TABLE " + KS + "." + TABLE + " WITH compaction = " + compaction);
    assertTrue(session.checkSchemaAgreement(), "schema disagreement after switching to " + compaction);
    for (ChildNode node : cluster.nodes()) {
      if (node.isRunning()) {
        cluster.nodetool(node, "flush", KS, TABLE);
      }
    }
  }

  /** The node runs Cairn's strategy on UCS for the table: its table's parameters name it, and its bean answers. */
  private static void assertPluginRuns(TestCluster cluster, ChildNode node) throws Exception {
    String params = (String) cluster.attribute(node,
        "org.apache.cassandra.db:type=Tables,keyspace=" + KS + ",table=" + TABLE, "CompactionParametersJson");
    assertTrue(params.contains("dev.cairn.cassandra.CairnUnifiedCompactionStrategy"),
        node.config().address() + " runs " + params);
    Object load = cluster.attribute(node, BEAN, "LoadClass");
    assertTrue("LOW".equals(load) || "HIGH".equals(load), node.config().address() + ": LoadClass " + load);
  }

  private void step(String what, long startNanos) {
    String line = String.format(java.util.Locale.ROOT, "%s in %.1f s", what, (System.nanoTime() - startNanos) / 1e9);
    steps.add(line);
    System.out.println("cluster: " + line);
  }
}

package dev.cairn.cassandra.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The install test, as an operator installs the plugin: a node in a child JVM, started like
 * Cassandra with the built plugin jar dropped into its class path; a table on LCS switched to
 * {@code CairnCompactionStrategy} with the README's CQL, written, overwritten and deleted through
 * the driver; the node stopped, started again on the same directories (the table's schema now
 * names the plugin's class, so the node's start loads it from the jar), every value checked; and
 * the table switched back to LCS, the README's way out before removing the jar. Also: a child
 * that cannot start is reported with its log. Runs under failsafe, after {@code package}, so the
 * jar is the one the build made.
 */
class ChildNodeIT {
  private static final String KS = "cairn_child";
  private static final String TABLE = "kv";
  private static final String CAIRN = "{'class': 'dev.cairn.cassandra.CairnCompactionStrategy',"
      + " 'sstable_size_in_mb': '1'}";

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aTableSwitchedToThePluginKeepsItsDataThroughARestartAndASwitchBack() throws Exception {
    Path jar = PluginJar.fromFailsafe();
    try (ChildNode node = ChildNode.create("child-node-it", List.of(jar))) {
      node.start();
      long firstPid = node.pid();
      System.out.printf("child node started in %d ms on port %d%n",
          node.lastStartTime().toMillis(), node.port());
      KvWorkload kv;
      try (CqlSession session = node.newSession()) {
        checkClassPath(session, jar);
        Row local = session.execute("SELECT data_center, release_version FROM system.local").one();
        assertEquals(NodeConfig.DATACENTER, local.getString("data_center"));
        assertEquals("5.0.9", local.getString("release_version"));

        session.execute("CREATE KEYSPACE " + KS
            + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE " + KS + "." + TABLE + " (k bigint PRIMARY KEY, v blob)"
            + " WITH compaction = {'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': '1'}");
        kv = new KvWorkload(session, KS, TABLE, 2_000, 512, Long.getLong("cairn.seed", 7L));
        kv.insertRange(0, 1_500);
        session.execute("ALTER TABLE " + KS + "." + TABLE + " WITH compaction = " + CAIRN);
        kv.randomRound(600, 200);
        kv.verify();
      }

      long t0 = System.nanoTime();
      int status = node.stop();
      System.out.printf("child node stopped in %d ms, status %d%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), status);
      assertFalse(node.isRunning());
      assertEquals(143, status, "not a SIGTERM exit; " + node.logTail()); // 128 + SIGTERM

      node.start();
      assertNotEquals(firstPid, node.pid());
      System.out.printf("child node restarted in %d ms on port %d%n",
          node.lastStartTime().toMillis(), node.port());
      try (CqlSession session = node.newSession()) {
        kv.useSession(session);
        kv.verify();
        kv.randomRound(400, 100);
        kv.verify();
        assertEquals("dev.cairn.cassandra.CairnCompactionStrategy", compactionClass(session));

        session.execute("ALTER TABLE " + KS + "." + TABLE + " WITH compaction ="
            + " {'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': '1'}");
        assertEquals("org.apache.cassandra.db.compaction.LeveledCompactionStrategy",
            compactionClass(session));
        kv.verify();
      }
      System.out.println("after restart: " + kv);
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aChildThatCannotStartIsReportedWithTheTailOfItsLog() throws Exception {
    try (ChildNode node = ChildNode.create("child-node-bad-yaml", List.of(PluginJar.fromFailsafe()))) {
      Files.writeString(node.config().yaml(), "no_such_cassandra_option: 1\n",
          StandardOpenOption.APPEND);
      AssertionError e = assertThrows(AssertionError.class, node::start);
      assertTrue(e.getMessage().contains("child node exited with status 3"), e.getMessage());
      assertTrue(e.getMessage().contains("no_such_cassandra_option"), e.getMessage());
      assertFalse(node.isRunning());
    }
  }

  private static String compactionClass(CqlSession session) {
    Row table = session.execute("SELECT compaction FROM system_schema.tables"
        + " WHERE keyspace_name = ? AND table_name = ?", KS, TABLE).one();
    return table.getMap("compaction", String.class, String.class).get("class");
  }

  /** The child's class path: Cassandra's jars and the plugin jar, no other Cairn classes. */
  private static void checkClassPath(CqlSession session, Path jar) {
    Row row = session.execute(
        "SELECT value FROM system_views.system_properties WHERE name = 'java.class.path'").one();
    List<String> entries = Arrays.asList(row.getString("value").split(File.pathSeparator));
    assertTrue(entries.contains(jar.toAbsolutePath().toString()), "plugin jar missing: " + entries);
    assertTrue(entries.stream().anyMatch(e -> e.endsWith("cassandra-all-5.0.9.jar")), "" + entries);
    List<String> cairn = new ArrayList<>();
    for (String e : entries) {
      if (ChildNode.holdsCairnClasses(Path.of(e))) {
        cairn.add(e);
      }
    }
    assertEquals(List.of(jar.toAbsolutePath().toString()), cairn,
        "Cairn classes on the child's class path other than the plugin jar");
  }
}

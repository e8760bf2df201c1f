package dev.cairn.cassandra.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.servererrors.InvalidConfigurationInQueryException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.cassandra.db.ColumnFamilyStore;
import org.apache.cassandra.db.compaction.LeveledCompactionStrategy;
import org.apache.cassandra.io.sstable.format.SSTableReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Proves {@link EmbeddedNode} with Cassandra's own {@link LeveledCompactionStrategy}: a node in this
 * JVM, reached through the driver over the native protocol, keeps every write, overwrite and delete
 * through flushes and leveled compactions, and refuses invalid compaction options with Cassandra's
 * message.
 */
class EmbeddedNodeTest {
  private static final String KS = "cairn_embedded";

  private static EmbeddedNode node;
  private static CqlSession session;

  @BeforeAll
  static void start() {
    node = EmbeddedNode.start("embedded-node-test");
    System.out.printf("EmbeddedNode started in %d ms on port %d%n",
        node.startTime().toMillis(), node.port());
    session = node.newSession();
    session.execute(
        "CREATE KEYSPACE " + KS
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
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void driverSeesTheLocalNodeInItsDatacenter() {
    Row local = session.execute("SELECT data_center, release_version FROM system.local").one();
    assertEquals(NodeConfig.DATACENTER, local.getString("data_center"));
    assertEquals("5.0.9", local.getString("release_version"));
    assertEquals(1, session.getMetadata().getNodes().size());
    session.getMetadata().getNodes().values().forEach(n -> {
      assertEquals(NodeConfig.DATACENTER, n.getDatacenter());
      assertEquals(node.config().contactPoint(), n.getEndPoint().resolve());
    });
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void leveledTableKeepsEveryWriteOverwriteAndDeleteThroughFlushesAndCompactions()
      throws InterruptedException {
    String table = "kv_lcs";
    session.execute(
        "CREATE TABLE " + KS + "." + table + " (k bigint PRIMARY KEY, v blob)"
            + " WITH compaction = {'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': '1'}");
    ColumnFamilyStore cfs = node.table(KS, table);
    assertEquals(LeveledCompactionStrategy.class,
        cfs.getCompactionStrategyManager().getCompactionParams().klass());

    // 3,000 keys of 1 KiB, then four rounds of overwrites, new keys and deletes, a flush after each
    // round: six SSTables' worth of writes over ~4 MiB of live data, so LCS (1 MiB tables) has to
    // build L1 from L0 and then merge later L0 tables into it.
    KvWorkload kv = new KvWorkload(session, KS, table, 4_000, 1_024, seed());
    kv.insertRange(0, 3_000);
    node.flush(KS, table);
    for (int round = 1; round <= 4; round++) {
      kv.randomRound(1_000, 250);
      node.flush(KS, table);
      if (round == 2) {
        kv.verify(); // while compactions run
      }
    }
    node.awaitCompactions(KS, table, Duration.ofMinutes(2));
    kv.verify();

    int[] perLevel = cfs.getCompactionStrategyManager().getSSTableCountPerLevel();
    int above0 = Arrays.stream(perLevel).skip(1).sum();
    String levels = Arrays.toString(perLevel) + " " + describe(cfs);
    assertTrue(cfs.metric.compactionBytesWritten.getCount() > 0, "no compaction ran: " + levels);
    assertTrue(above0 >= 2, "LCS built no leveled tables of 1 MiB: " + levels);
    for (SSTableReader sstable : cfs.getLiveSSTables()) {
      if (sstable.getSSTableLevel() > 0) {
        assertTrue(sstable.onDiskLength() < 2L << 20,
            "a leveled table is far above sstable_size_in_mb 1: " + levels);
      }
    }
    System.out.println("LCS levels after settling: " + levels + ", " + kv);
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void invalidCompactionOptionsAreRefusedWithCassandrasMessage() {
    String table = "kv_options";
    session.execute(
        "CREATE TABLE " + KS + "." + table + " (k bigint PRIMARY KEY, v blob)"
            + " WITH compaction = {'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': '1'}");

    InvalidConfigurationInQueryException negative = assertThrows(
        InvalidConfigurationInQueryException.class,
        () -> session.execute("ALTER TABLE " + KS + "." + table + " WITH compaction ="
            + " {'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': '-1'}"));
    assertTrue(negative.getMessage().contains("sstable_size_in_mb must be larger than 0, but was -1"),
        negative.getMessage());

    InvalidConfigurationInQueryException unknown = assertThrows(
        InvalidConfigurationInQueryException.class,
        () -> session.execute("ALTER TABLE " + KS + "." + table + " WITH compaction ="
            + " {'class': 'LeveledCompactionStrategy', 'no_such_option': '7'}"));
    assertTrue(unknown.getMessage().contains(
        "Properties specified [no_such_option] are not understood by LeveledCompactionStrategy"),
        unknown.getMessage());

    // Neither reached the schema.
    Map<String, String> compaction = session.execute(
            "SELECT compaction FROM system_schema.tables WHERE keyspace_name = ? AND table_name = ?",
            KS, table)
        .one()
        .getMap("compaction", String.class, String.class);
    assertEquals("1", compaction.get("sstable_size_in_mb"), compaction.toString());
    assertTrue(compaction.get("class").endsWith("LeveledCompactionStrategy"), compaction.toString());
    assertEquals("1", node.table(KS, table).getCompactionStrategyManager().getCompactionParams()
        .options().get("sstable_size_in_mb"));
  }

  private static String describe(ColumnFamilyStore cfs) {
    StringBuilder sb = new StringBuilder("[");
    for (SSTableReader s : cfs.getLiveSSTables()) {
      sb.append(" L").append(s.getSSTableLevel()).append(':').append(s.onDiskLength() >> 10)
          .append("KiB");
    }
    return sb.append(" ]").toString();
  }

  private static long seed() {
    return Long.getLong("cairn.seed", 20260101L);
  }
}

package dev.cairn.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A table on Cairn's policy keeps exactly what was written to it, checked against a reference
 * model (full scans, range scans and gets) after each of: rounds of random puts, overwrites and
 * deletes with flushes under a read load that makes the policy delay and part-run compactions; a
 * user compaction; a split (whose daughters' references the policy must let compact); a region
 * move to the other server; a merge; a restart of HBase on the same files; a major compaction.
 */
class DataThroughOperationsTest {
  static final String TABLE = "data";
  static final TableName NAME = TableName.valueOf(TABLE);
  private static final int KEYS = 6000;
  private static final int MUTATIONS = 2500;
  static final Duration WAIT = Duration.ofSeconds(90);
  static MiniCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = MiniCluster.start();
  }

  @AfterAll
  static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void dataMatchesAReferenceThroughFlushesCompactionsSplitMoveMergeAndRestart() throws Exception {
    ReferenceModel model = new ReferenceModel(15, KEYS, 1500);
    Table table = cluster.createTable(TABLE, tableSettings());
    model.mutate(table, KEYS);
    cluster.flush(TABLE);
    model.verify(table, "after loading");

    try (ReadLoad readers = new ReadLoad(cluster.connection(), TABLE, KEYS, 2)) {
      for (int round = 0; round < 5; round++) {
        model.mutate(table, MUTATIONS);
        cluster.flush(TABLE);
        model.verify(table, "after round " + round + " under read load");
      }
      checkUnderLoad();
      model.verify(table, "after the checks under read load");

      cluster.admin().compact(NAME);
      waitForCompactions();
      model.verify(table, "after a user compaction");

      HRegion parent = cluster.regions(TABLE).get(0);
      cluster.admin().splitRegionAsync(parent.getRegionInfo().getRegionName(), Rows.key(KEYS / 2))
          .get(WAIT.toSeconds(), TimeUnit.SECONDS);
      MiniCluster.waitFor("two daughters online", WAIT, () -> cluster.regions(TABLE).size() == 2);
      model.verify(table, "after a split");
      // The daughters hold references to the parent's files until they compact them away; the
      // policy never delays that (a region with references can neither split again nor merge).
      MiniCluster.waitFor("the daughters' references compacted away", WAIT,
          () -> cluster.regions(TABLE).stream().noneMatch(HRegion::hasReferences));
      model.mutate(table, MUTATIONS);
      cluster.flush(TABLE);
      model.verify(table, "after writes to both daughters");

      HRegion moving = cluster.regions(TABLE).get(0);
      cluster.moveAndWait(moving, cluster.otherServer(moving));
      model.verify(table, "after a region move");
      checkAfterReopen("the region move");
      model.mutate(table, MUTATIONS);
      cluster.flush(TABLE);
      model.verify(table, "after writes following the move");

      List<HRegion> daughters = cluster.regions(TABLE);
      cluster.admin().mergeRegionsAsync(new byte[][] {
          daughters.get(0).getRegionInfo().getEncodedNameAsBytes(),
          daughters.get(1).getRegionInfo().getEncodedNameAsBytes()}, false).get(WAIT.toSeconds(), TimeUnit.SECONDS);
      MiniCluster.waitFor("the merged region online", WAIT, () -> cluster.regions(TABLE).size() == 1);
      model.verify(table, "after a merge");
      model.mutate(table, MUTATIONS);
      cluster.flush(TABLE);
      model.verify(table, "after writes following the merge");
    }

    // Unflushed writes too: the restart closes every region, flushing it.
    model.mutate(table, MUTATIONS);
    table.close();
    cluster.restart();
    table = cluster.connection().getTable(NAME);
    model.verify(table, "after a restart");
    checkAfterReopen("the restart");
    model.mutate(table, MUTATIONS);
    cluster.flush(TABLE);
    model.verify(table, "after writes following the restart");

    cluster.compactToOneFilePerRegion(TABLE, WAIT);
    model.verify(table, "after a major compaction");
    for (HStore store : cluster.stores(TABLE)) {
      assertEquals(1, store.getStorefilesCount(), "one file per store after the major compaction");
    }
    assertTrue(model.size() > KEYS / 2, "the model holds most keys (deletes are a minority): " + model.size());
    table.close();
  }

  /** The table's settings beside MiniCluster's (which put it on Cairn's policy). */
  Map<String, String> tableSettings() {
    return Map.of();
  }

  /** After rounds of writes under read load: the component under test acted. */
  void checkUnderLoad() throws Exception {
    assertTrue(cluster.policyCounter(TABLE, "DelayedCompactions") + cluster.policyCounter(TABLE, "PartRuns") > 0,
        "Cairn's policy delayed or part-ran compactions (the test covers its selections, not only HBase's)");
  }

  /** After regions were closed and opened again ({@code what}). */
  void checkAfterReopen(String what) throws Exception {}

  private static void waitForCompactions() throws Exception {
    Thread.sleep(500);
    MiniCluster.waitFor("the table's compactions to finish", WAIT, () -> cluster.compactionsIdle(TABLE));
  }
}

package dev.cairn.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.regionserver.compactions.ExploringCompactionPolicy;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * {@link DataThroughOperationsTest}'s operations on a table on the buffer engine with HBase's
 * own compaction policy: the data matches the reference through flushes, buffered compactions,
 * the trim's retirements, a split, a move, a merge and a restart. Under the read load the
 * engine must have buffered compactions, served reads from buffered inputs and retired
 * generations in its trim (a 1 s interval here); after a move or restart the buffer is gone and
 * no buffered input is left in a store's directory.
 */
class BufferDataThroughOperationsTest extends DataThroughOperationsTest {
  @Override
  Map<String, String> tableSettings() {
    return Map.of(
        "hbase.hstore.engine.class", CairnBufferStoreEngine.class.getName(),
        MiniCluster.POLICY_CLASS_KEY, ExploringCompactionPolicy.class.getName(),
        BufferOptions.TRIM_INTERVAL_MS, "1000",
        BufferOptions.MIN_SERVED_SHARE, "0.9",
        // A generation retires once its leaves hold 5% of the 4 MiB cache beyond its output, so
        // the trim retires generations within a few rounds of overwrites.
        BufferOptions.MAX_DILUTION, "0.05");
  }

  @Override
  void checkUnderLoad() throws Exception {
    MiniCluster.waitFor("buffered compactions, reads from the buffer and trim retirements", WAIT,
        () -> cluster.bufferCounter(TABLE, "BufferedCompactions") > 0
            && cluster.bufferCounter(TABLE, "ReadsFromBuffer") > 0
            && retiredByTrim() > 0,
        () -> "buffered " + cluster.bufferCounter(TABLE, "BufferedCompactions") + ", unbuffered "
            + cluster.bufferCounter(TABLE, "UnbufferedCompactions") + ", reads from the buffer "
            + cluster.bufferCounter(TABLE, "ReadsFromBuffer") + ", retired by the trim " + retiredByTrim()
            + ", generations " + cluster.bufferCounter(TABLE, "Generations"));
  }

  private static long retiredByTrim() {
    return cluster.bufferCounter(TABLE, "RetiredCooled") + cluster.bufferCounter(TABLE, "RetiredOutputWarm")
        + cluster.bufferCounter(TABLE, "RetiredOutgrown") + cluster.bufferCounter(TABLE, "RetiredDiluted")
        + cluster.bufferCounter(TABLE, "RetiredOverBudget");
  }

  /**
   * A reopened store holds its live files alone: no generation, and in its directory no file
   * beyond them (HBase archived the buffered inputs on close, or on open from the outputs'
   * compaction records).
   */
  @Override
  void checkAfterReopen(String what) throws Exception {
    MiniCluster.waitFor("only live files in the store directories after " + what, WAIT, () -> {
      for (HStore store : cluster.stores(TABLE)) {
        if (!onDisk(store).equals(live(store))) {
          return false;
        }
      }
      return true;
    });
    for (HStore store : cluster.stores(TABLE)) {
      CairnBufferStoreEngine engine = (CairnBufferStoreEngine) store.getStoreEngine();
      assertEquals(List.of(), engine.storeFiles().generations().stream().map(g -> g.output.getPath().getName())
          .filter(name -> !live(store).contains(name)).collect(Collectors.toList()), "generations after " + what);
    }
  }

  private static List<String> live(HStore store) {
    return store.getStorefiles().stream().map(HStoreFile::getPath).map(p -> p.getName()).sorted()
        .collect(Collectors.toList());
  }

  private static List<String> onDisk(HStore store) {
    try {
      return store.getRegionFileSystem().getStoreFiles(Bytes.toString(MiniCluster.FAMILY)).stream()
          .map(StoreFileInfo::getPath).map(p -> p.getName()).sorted().collect(Collectors.toList());
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}

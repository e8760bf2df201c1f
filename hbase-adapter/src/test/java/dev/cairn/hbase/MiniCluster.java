package dev.cairn.hbase;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A real HBase in the test JVM: a ZooKeeper, a master and two region servers (so a region can
 * move) on the local file system, no HDFS. Settings are src/test/resources/hbase-site.xml's.
 * Tables are put on Cairn's policy the way an operator does it: the policy class in the table's
 * {@code CONFIGURATION}.
 */
final class MiniCluster implements AutoCloseable {
  static final String POLICY_CLASS_KEY = "hbase.hstore.defaultengine.compactionpolicy.class";
  static final byte[] FAMILY = Bytes.toBytes("f");
  /**
   * The tables' memstore flush size (the least HBase accepts), scaled down with the data as the
   * block cache is: HBase's "always in ratio" size and Cairn's "fresh file" size follow it.
   */
  static final long FLUSH_BYTES = 1024 * 1024;

  private static final StartMiniClusterOption TWO_SERVERS =
      StartMiniClusterOption.builder().numRegionServers(2).build();

  private final HBaseTestingUtility util = new HBaseTestingUtility();

  private MiniCluster() {}

  static MiniCluster start() throws Exception {
    MiniCluster cluster = new MiniCluster();
    cluster.util.startMiniZKCluster();
    cluster.util.startMiniHBaseCluster(TWO_SERVERS);
    return cluster;
  }

  /** Stops HBase (every region closes, flushing its memstore) and starts it on the same files. */
  void restart() throws Exception {
    util.shutdownMiniHBaseCluster();
    util.restartHBaseCluster(TWO_SERVERS);
  }

  Connection connection() throws IOException {
    return util.getConnection();
  }

  Admin admin() throws IOException {
    return util.getAdmin();
  }

  MiniHBaseCluster hbase() {
    return util.getMiniHBaseCluster();
  }

  /** Creates {@code name} with one family on Cairn's policy, {@code settings} in its configuration. */
  Table createTable(String name, Map<String, String> settings) throws Exception {
    TableDescriptorBuilder table = TableDescriptorBuilder.newBuilder(TableName.valueOf(name))
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY))
        .setMemStoreFlushSize(FLUSH_BYTES)
        // Regions split only when a test splits them: HBase's default policy would split at twice
        // the flush size.
        .setRegionSplitPolicyClassName(ConstantSizeRegionSplitPolicy.class.getName())
        .setMaxFileSize(1L << 30)
        .setValue(POLICY_CLASS_KEY, CairnCompactionPolicy.class.getName());
    settings.forEach(table::setValue);
    admin().createTable(table.build());
    util.waitTableAvailable(TableName.valueOf(name));
    return connection().getTable(TableName.valueOf(name));
  }

  /**
   * Flushes every region of the table through the region server's flush RPC, which, like a flush
   * the memstore triggers, queues a compaction request once the store needs one. (In 2.6
   * {@code Admin.flush(table)} runs a procedure that flushes and never asks for a compaction.)
   * Returns once each region's memstore is empty: the RPC does nothing while the server's own
   * flusher is flushing the region (HBase answers it "cannot flush"), and the rows it left would
   * land in a later flush, one file fewer than a test counts on.
   */
  void flush(String table) throws IOException, InterruptedException {
    for (HRegion region : regions(table)) {
      byte[] name = region.getRegionInfo().getRegionName();
      admin().flushRegion(name);
      waitFor("an empty memstore in " + region, Duration.ofSeconds(60), () -> {
        if (region.getMemStoreDataSize() == 0) {
          return true;
        }
        try {
          admin().flushRegion(name);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        return region.getMemStoreDataSize() == 0;
      });
    }
  }

  /**
   * Major-compacts the table until each region has one store file and no major compaction is
   * pending. A major compaction asked while a minor one runs covers only the files not being
   * compacted, so it is asked again once the table's compactions have finished. Such a request
   * (or a second one sent while the first was queued) selects nothing and leaves the store's
   * forceMajor flag set; HBase would then turn the store's next selection, a test's first
   * flushes, into a major compaction, which Cairn's policy never delays. So the loop also runs
   * until a selection has consumed that flag, and returns once the compactions have ended.
   */
  void compactToOneFilePerRegion(String table, Duration timeout) throws Exception {
    TableName name = TableName.valueOf(table);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (stores(table).stream().anyMatch(s -> s.getStorefilesCount() > 1 || majorCompactionPending(s))) {
      if (System.nanoTime() > deadline) {
        fail("timed out after " + timeout.toSeconds() + " s compacting " + table
            + " to one file per region with no major compaction pending");
      }
      if (compactionsIdle(table)) {
        admin().majorCompact(name);
      }
      Thread.sleep(500);
    }
    waitFor(table + "'s compactions to end", timeout, () -> compactionsIdle(table));
  }

  /** Whether no compaction of {@code table} is running or queued, as the admin API reports. */
  boolean compactionsIdle(String table) {
    try {
      return admin().getCompactionState(TableName.valueOf(table)) == CompactionState.NONE;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** HStore's package-private forceMajor: a major compaction requested and not yet selected. */
  private static boolean majorCompactionPending(HStore store) {
    try {
      Field forceMajor = HStore.class.getDeclaredField("forceMajor");
      forceMajor.setAccessible(true);
      return forceMajor.getBoolean(store);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("HStore.forceMajor not readable in this HBase version", e);
    }
  }

  /** The table's open regions, on whichever server holds them. */
  List<HRegion> regions(String table) {
    return hbase().getRegions(TableName.valueOf(table));
  }

  /** The family's store in each open region of the table. */
  List<HStore> stores(String table) {
    List<HStore> stores = new ArrayList<>();
    for (HRegion region : regions(table)) {
      stores.add(region.getStore(FAMILY));
    }
    return stores;
  }

  /** Store files of the table's family over all its regions. */
  int storeFiles(String table) {
    return stores(table).stream().mapToInt(HStore::getStorefilesCount).sum();
  }

  /** The server that does not hold {@code region}'s row. */
  ServerName otherServer(HRegion region) {
    int holder = hbase().getServerWith(region.getRegionInfo().getRegionName());
    return hbase().getRegionServer(1 - holder).getServerName();
  }

  void moveAndWait(HRegion region, ServerName to) throws Exception {
    util.moveRegionAndWait(region.getRegionInfo(), to);
  }

  /** An attribute of the table's Cairn policy bean, summed over its regions (numbers) or the first. */
  Object policyAttribute(String table, String attribute) {
    return beanAttribute("CompactionPolicy", table, attribute);
  }

  long policyCounter(String table, String attribute) {
    Object value = policyAttribute(table, attribute);
    return value == null ? 0 : (Long) value;
  }

  /** A counter of the table's compaction buffer beans (the buffer engine), summed over its regions. */
  long bufferCounter(String table, String attribute) {
    Object value = beanAttribute("CompactionBuffer", table, attribute);
    return value == null ? 0 : ((Number) value).longValue();
  }

  /** An attribute of the table's Cairn beans of {@code type}, summed over its regions (numbers) or the first. */
  private static Object beanAttribute(String type, String table, String attribute) {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    try {
      Set<ObjectName> names = server.queryNames(new ObjectName(
          "dev.cairn.hbase:type=" + type + ",table=" + ObjectName.quote(table) + ",*"), null);
      Object result = null;
      for (ObjectName name : names) {
        Object value = server.getAttribute(name, attribute);
        if (value instanceof Long l && result instanceof Long sum) {
          result = sum + l;
        } else if (value instanceof Integer i && result instanceof Integer sum) {
          result = sum + i;
        } else if (result == null) {
          result = value;
        }
      }
      return result;
    } catch (JMException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Waits for {@code condition}, failing with {@code what} once {@code timeout} has passed. */
  static void waitFor(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
    waitFor(what, timeout, condition, () -> "");
  }

  /** {@link #waitFor}, the failure also saying what {@code state} reports then. */
  static void waitFor(String what, Duration timeout, BooleanSupplier condition, Supplier<String> state)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        String now = state.get();
        fail("timed out after " + timeout.toSeconds() + " s waiting for " + what + (now.isEmpty() ? "" : ": " + now));
      }
      Thread.sleep(100);
    }
  }

  @Override
  public void close() throws IOException {
    util.shutdownMiniHBaseCluster();
    util.shutdownMiniZKCluster();
    util.cleanupTestDir();
  }
}

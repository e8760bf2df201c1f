package dev.cairn.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.hbase.buffer.ChangedRows;
import dev.cairn.hbase.buffer.GenerationTrim;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.EnvironmentEdge;
import org.apache.hadoop.hbase.util.EnvironmentEdgeManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The buffer's invariant, checked on a real HBase region (a local HRegion on real files, HBase's
 * own flushes, compactions and scanners): after random puts, version and column and family
 * deletes, expired cells (a family TTL and a clock moved on), flushes, minor and major
 * compactions and random retirements, every read through the buffer returns exactly what the
 * same read returns from the compactions' outputs alone. The reads cover gets and scans, all
 * versions, time ranges, a value filter (which exposes versions a compaction dropped), reversed
 * and raw scans.
 */
class BufferReadEquivalenceTest {
  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final int ROWS = 40;
  private static final long TTL_SECONDS = 3600;
  private static final AtomicLong NOW = new AtomicLong();
  private static HBaseTestingUtility util;
  private static int tables;

  @BeforeAll
  static void start() {
    util = new HBaseTestingUtility();
    Configuration conf = util.getConfiguration();
    conf.set("hbase.hstore.engine.class", CairnBufferStoreEngine.class.getName());
    conf.setInt("hbase.hstore.compaction.min", 2);
    conf.setFloat("hbase.hstore.compaction.ratio", 100f); // select widely: many shapes of compaction
    conf.setInt("hbase.hstore.blockingStoreFiles", 1000);
    conf.setInt(BufferOptions.MAX_EXTRA_FRACTION, 20); // tiny files: a file's fixed parts outweigh its cells
    NOW.set(System.currentTimeMillis());
    EnvironmentEdgeManager.injectEdge((EnvironmentEdge) NOW::get); // TTLs expire when the test says
  }

  @AfterAll
  static void stop() throws IOException {
    EnvironmentEdgeManager.reset();
    util.cleanupTestDir();
  }

  @Test
  void readsThroughTheBufferEqualReadsOfTheOutputsAlone() throws IOException {
    long leafReads = 0;
    long leafFilesSkipped = 0;
    long generationsSeen = 0;
    for (long seed = 1; seed <= 8; seed++) {
      Random random = new Random(seed);
      HRegion region = newRegion(1 + random.nextInt(3));
      try {
        HStore store = region.getStore(FAMILY);
        CairnBufferStoreEngine engine = (CairnBufferStoreEngine) store.getStoreEngine();
        for (int round = 0; round < 24; round++) {
          mutate(region, random, 10 + random.nextInt(30));
          region.flush(true);
          if (random.nextInt(3) == 0) {
            NOW.addAndGet(random.nextInt(600) * 1000L); // older cells cross the TTL
          }
          if (random.nextInt(2) == 0) {
            region.compact(random.nextInt(5) == 0);
            generationsSeen += engine.storeFiles().generations().size();
            assertSameReads(region, engine, random, "seed " + seed + " round " + round);
          }
          if (random.nextInt(6) == 0) {
            retireOne(engine, random);
          }
        }
        leafReads += engine.stats().leafReads();
        leafFilesSkipped += engine.stats().leafFilesSkipped();
      } finally {
        HBaseTestingUtility.closeRegionAndWAL(region);
      }
    }
    assertTrue(generationsSeen > 0, "no compaction was buffered: the comparison tested nothing");
    assertTrue(leafReads > 0, "no read used the buffer: the comparison tested nothing");
    assertTrue(leafFilesSkipped > 0, "no get skipped a leaf: the row filters went untested");
  }

  /**
   * The cases the changed rows exist for, with two versions kept. Row r1: the compaction drops
   * the older file's version, so a get of r1 reads the inputs less that file, and a time-ranged
   * get that would find the dropped version in it finds nothing, as from the output. Row r4: the
   * compaction drops one of the older file's two versions, so only the output answers for it. Rows
   * the compaction kept whole read from both inputs.
   */
  @Test
  void aChangedRowIsReadFromTheInputsLessThoseThatLostItOrFromTheOutput() throws IOException {
    HRegion region = newRegion(2);
    try {
      CairnBufferStoreEngine engine = (CairnBufferStoreEngine) region.getStore(FAMILY).getStoreEngine();
      byte[] q = Bytes.toBytes("q");
      long t = NOW.get() - 60_000;
      put(region, "r1", q, t, "old");
      put(region, "r3", q, t, "kept");
      put(region, "r4", q, t, "a");
      put(region, "r4", q, t + 1, "b");
      region.flush(true);
      put(region, "r1", q, t + 2, "new");
      put(region, "r1", q, t + 3, "newer");
      put(region, "r2", q, t, "only");
      put(region, "r4", q, t + 2, "c");
      region.flush(true);
      region.compact(false);

      List<BufferGeneration> generations = new ArrayList<>(engine.storeFiles().generations());
      assertEquals(1, generations.size());
      BufferGeneration g = generations.get(0);
      assertEquals(2, g.leaves.size());
      assertEquals(ChangedRows.bit(0), g.changed.maskOf(Bytes.toBytes("r1")), g.changed.toString());
      assertEquals(ChangedRows.PARTIAL, g.changed.maskOf(Bytes.toBytes("r4")), g.changed.toString());
      assertEquals(ChangedRows.UNCHANGED, g.changed.maskOf(Bytes.toBytes("r2")), g.changed.toString());
      assertEquals(ChangedRows.UNCHANGED, g.changed.maskOf(Bytes.toBytes("r3")), g.changed.toString());

      Result r1 = region.get(new Get(Bytes.toBytes("r1")).readAllVersions().setTimeRange(0, t + 2));
      assertTrue(r1.isEmpty(), "the dropped version came back: " + r1);
      assertEquals(1, g.leafReads.sum());
      Result r4 = region.get(new Get(Bytes.toBytes("r4")).readAllVersions());
      assertEquals(List.of(t + 2, t + 1), r4.listCells().stream().map(Cell::getTimestamp).toList());
      assertEquals(1, g.outputReads.sum());
      assertEquals("only", Bytes.toString(region.get(new Get(Bytes.toBytes("r2"))).getValue(FAMILY, q)));
      assertEquals(2, g.leafReads.sum());
      // r1's get skipped the older file by its drop mask, r2's by its row filter (r2 is only in the newer one)
      assertEquals(2, engine.stats().leafFilesOpened());
      assertEquals(2, engine.stats().leafFilesSkipped());
    } finally {
      HBaseTestingUtility.closeRegionAndWAL(region);
    }
  }

  private static void put(HRegion region, String row, byte[] q, long ts, String value) throws IOException {
    region.put(new Put(Bytes.toBytes(row)).addColumn(FAMILY, q, ts, Bytes.toBytes(value)));
  }

  private static HRegion newRegion(int maxVersions) throws IOException {
    return newRegion(maxVersions, Map.of());
  }

  /** A local region of a new table whose descriptor holds {@code settings}. */
  private static HRegion newRegion(int maxVersions, Map<String, String> settings) throws IOException {
    TableDescriptorBuilder table = TableDescriptorBuilder.newBuilder(TableName.valueOf("t" + (tables++)))
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).setMaxVersions(maxVersions)
            .setTimeToLive((int) TTL_SECONDS).build());
    settings.forEach(table::setValue);
    return util.createLocalHRegion(table.build(), null, null);
  }

  /**
   * The buffers' heap budget: the same compactions are buffered under the default budget and not
   * under a budget of 0, which names the budget as the reason.
   */
  @Test
  void aCompactionThatWouldTakeTheBuffersPastTheHeapBudgetIsNotBuffered() throws IOException {
    for (String budgetMb : new String[] {"256", "0"}) {
      HRegion region = newRegion(1, Map.of(BufferOptions.MAX_HEAP_MB, budgetMb));
      try {
        CairnBufferStoreEngine engine = (CairnBufferStoreEngine) region.getStore(FAMILY).getStoreEngine();
        Random random = new Random(7);
        for (int round = 0; round < 3; round++) {
          mutate(region, random, 30);
          region.flush(true);
        }
        region.compact(false);
        if (budgetMb.equals("0")) {
          assertEquals(0, engine.storeFiles().generations().size(), "buffered past a budget of 0");
          assertTrue(engine.stats().lastNotBuffered().startsWith("over the server's heap budget ("),
              engine.stats().lastNotBuffered());
        } else {
          assertEquals(1, engine.storeFiles().generations().size(), "not buffered under the default budget: "
              + engine.stats().lastNotBuffered());
        }
      } finally {
        HBaseTestingUtility.closeRegionAndWAL(region);
      }
    }
  }

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("r%03d", i));
  }

  private static byte[] qualifier(Random random) {
    return Bytes.toBytes("q" + random.nextInt(3));
  }

  /** A timestamp within the TTL's reach of now, some already past it. */
  private static long timestamp(Random random) {
    return NOW.get() - random.nextInt(80) * 60_000L;
  }

  private static void mutate(HRegion region, Random random, int count) throws IOException {
    for (int i = 0; i < count; i++) {
      byte[] row = row(random.nextInt(ROWS));
      int kind = random.nextInt(10);
      if (kind < 6) {
        byte[] value = Bytes.toBytes(Character.toString('a' + random.nextInt(26)) + random.nextInt(1000));
        region.put(new Put(row).addColumn(FAMILY, qualifier(random), timestamp(random), value));
      } else if (kind == 6) {
        region.delete(new Delete(row).addColumn(FAMILY, qualifier(random), timestamp(random)));
      } else if (kind == 7) {
        region.delete(new Delete(row).addColumns(FAMILY, qualifier(random), timestamp(random)));
      } else if (kind == 8) {
        region.delete(new Delete(row).addFamily(FAMILY, timestamp(random)));
      } else {
        region.delete(new Delete(row).addFamilyVersion(FAMILY, timestamp(random)));
      }
    }
  }

  private static void retireOne(CairnBufferStoreEngine engine, Random random) {
    List<BufferGeneration> held = new ArrayList<>(engine.storeFiles().generations());
    if (!held.isEmpty()) {
      long id = held.get(random.nextInt(held.size())).id;
      engine.storeFiles().retire(List.of(new GenerationTrim.Retirement(id, GenerationTrim.Reason.COOLED)));
    }
  }

  /** Every read of the battery, through the buffer and then from the outputs alone. */
  private static void assertSameReads(HRegion region, CairnBufferStoreEngine engine, Random random, String where)
      throws IOException {
    List<Object> reads = battery(random);
    for (Object read : reads) {
      engine.readOutputsOnly(false);
      String buffered = run(region, read);
      engine.readOutputsOnly(true);
      String outputs = run(region, read);
      engine.readOutputsOnly(false);
      assertEquals(outputs, buffered, where + ": " + read);
    }
  }

  private static List<Object> battery(Random random) throws IOException {
    List<Object> reads = new ArrayList<>();
    long t = timestamp(random);
    for (int i = 0; i < 12; i++) {
      byte[] row = row(random.nextInt(ROWS + 2));
      reads.add(new Get(row));
      reads.add(new Get(row).readAllVersions());
      reads.add(new Get(row).readAllVersions().setTimeRange(0, t));
      reads.add(new Get(row).addColumn(FAMILY, qualifier(random)).readAllVersions());
      reads.add(new Get(row).setFilter(new ValueFilter(CompareOperator.LESS, new BinaryComparator(Bytes.toBytes("m")))));
      reads.add(new Scan().withStartRow(row).withStopRow(row, true).setRaw(true).readAllVersions());
    }
    int a = random.nextInt(ROWS);
    int b = random.nextInt(ROWS);
    reads.add(new Scan());
    reads.add(new Scan().readAllVersions());
    reads.add(new Scan().withStartRow(row(Math.min(a, b))).withStopRow(row(Math.max(a, b)), true));
    reads.add(new Scan().withStartRow(row(Math.max(a, b))).withStopRow(row(Math.min(a, b))).setReversed(true));
    reads.add(new Scan().setRaw(true).readAllVersions());
    reads.add(new Scan().readAllVersions().setTimeRange(0, t));
    reads.add(new Scan().setFilter(new ValueFilter(CompareOperator.LESS, new BinaryComparator(Bytes.toBytes("m")))));
    return reads;
  }

  /** The read's cells as text: row, family, qualifier, timestamp, type and value (no sequence id). */
  private static String run(HRegion region, Object read) throws IOException {
    List<Cell> cells = new ArrayList<>();
    if (read instanceof Get get) {
      List<Cell> got = region.get(get).listCells();
      cells.addAll(got == null ? List.of() : got);
    } else {
      try (RegionScanner scanner = region.getScanner((Scan) read)) {
        List<Cell> batch = new ArrayList<>();
        boolean more;
        do {
          more = scanner.next(batch);
          cells.addAll(batch);
          batch.clear();
        } while (more);
      }
    }
    StringBuilder sb = new StringBuilder();
    for (Cell c : cells) {
      sb.append(Bytes.toStringBinary(CellUtil.cloneRow(c))).append('/').append(Bytes.toString(CellUtil.cloneFamily(c)))
          .append(':').append(Bytes.toString(CellUtil.cloneQualifier(c))).append('/').append(c.getTimestamp())
          .append('/').append(c.getType()).append('=').append(Bytes.toStringBinary(CellUtil.cloneValue(c)))
          .append('\n');
    }
    return sb.toString();
  }
}

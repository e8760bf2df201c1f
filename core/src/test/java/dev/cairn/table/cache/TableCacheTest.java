package dev.cairn.table.cache;

import static dev.cairn.table.TableTestSupport.userKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import dev.cairn.fs.ForwardingFileSystem;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.fs.ReadableFile;
import dev.cairn.fs.WritableFile;
import dev.cairn.key.InternalKey;
import dev.cairn.key.LookupResult;
import dev.cairn.key.ValueType;
import dev.cairn.table.Footer;
import dev.cairn.table.HeapBlockCache;
import dev.cairn.table.TableBuilder;
import dev.cairn.table.TableOptions;
import dev.cairn.table.TableSummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableCacheTest {
  @TempDir Path dir;
  private final LocalFileSystem fs = new LocalFileSystem();

  /** Writes one entry (key 1 -> value) as a table; returns its summary. */
  private TableSummary writeTable(WritableFile f, long previousFooter, long extent, String value)
      throws IOException {
    TableBuilder b = new TableBuilder(f, TableOptions.DEFAULT, previousFooter, extent);
    b.add(InternalKey.encode(userKey(1), 10 + extent, ValueType.VALUE),
        value.getBytes(StandardCharsets.UTF_8));
    TableSummary s = b.finish();
    f.sync();
    return s;
  }

  private TableSummary createTable(long number, String value) throws IOException {
    try (WritableFile f = fs.create(FileNames.tablePath(dir, number), IoTag.FLUSH)) {
      return writeTable(f, Footer.NO_PREVIOUS, 0, value);
    }
  }

  private static String valueOf(TableHandle h) {
    LookupResult r = h.reader().get(userKey(1), InternalKey.MAX_SEQUENCE, true);
    return new String(r.value(), StandardCharsets.UTF_8);
  }

  @Test
  void evictionNeverClosesAHeldReader() throws IOException {
    TableSummary s1 = createTable(1, "one");
    TableSummary s2 = createTable(2, "two");
    HeapBlockCache blocks = new HeapBlockCache(1 << 20);
    try (TableCache cache = new TableCache(fs, dir, 1, blocks)) {
      TableHandle h1 = cache.acquire(1, s1.footerOffset());
      try (TableHandle h2 = cache.acquire(2, s2.footerOffset())) {
        // Capacity 1: table 1 was evicted from the cache, but h1 still holds it open.
        assertEquals(1, cache.cachedTables());
        assertEquals(2, cache.openTables());
        assertEquals("one", valueOf(h1));
        assertEquals("two", valueOf(h2));
      }
      h1.close();
      assertEquals(1, cache.openTables(), "evicted table closes with its last handle");
      try (TableHandle again = cache.acquire(1, s1.footerOffset())) {
        assertEquals("one", valueOf(again));
      }
      assertEquals(3, cache.opens());

      // evict(file) while held: the reader keeps working until released; blocks are dropped.
      TableHandle held = cache.acquire(1, s1.footerOffset());
      cache.evict(1);
      assertEquals(0, blocks.cachedBlockCount(1));
      assertEquals("one", valueOf(held));
      held.close();
      // Table 2 left the capacity-1 cache when table 1 came back; table 1 is now evicted too.
      assertEquals(0, cache.openTables());
      assertEquals(0, cache.cachedTables());
    }
    assertEquals(0, blocks.pinned());
  }

  /** Writes keys 0..n-1 (one 1 KiB block a key with 4 KiB blocks: about n/3 index entries). */
  private TableSummary createTableOf(long number, int n) throws IOException {
    try (WritableFile f = fs.create(FileNames.tablePath(dir, number), IoTag.FLUSH)) {
      TableBuilder b = new TableBuilder(f, TableOptions.DEFAULT, Footer.NO_PREVIOUS, 0);
      for (int i = 0; i < n; i++) {
        b.add(InternalKey.encode(userKey(i), 1, ValueType.VALUE), new byte[1000]);
      }
      TableSummary s = b.finish();
      f.sync();
      return s;
    }
  }

  @Test
  void aTablePinsHeapThatGrowsWithItsIndex() throws IOException {
    TableSummary small = createTableOf(1, 30);
    TableSummary large = createTableOf(2, 3000);
    try (TableCache cache = new TableCache(fs, dir, 16, null);
        TableHandle s = cache.acquire(1, small.footerOffset());
        TableHandle l = cache.acquire(2, large.footerOffset())) {
      long smallBytes = s.reader().pinnedBytes();
      long largeBytes = l.reader().pinnedBytes();
      int entries = (int) l.reader().properties().dataBlocks();
      assertTrue(entries > 500, "index entries " + entries);
      assertTrue(largeBytes > 20 * smallBytes, smallBytes + " against " + largeBytes);
      // Each index entry: a separator array, a handle, references and two longs (64 bytes and
      // more); the filter: 10 bits for each of 3,000 keys; 1 KiB for the table's objects.
      long filterBytes = 3000 * 10 / 8;
      assertTrue(largeBytes >= entries * 64L + filterBytes + 1024 && largeBytes <= entries * 200L + filterBytes + 2048,
          "pinned " + largeBytes + " for " + entries + " index entries");
      assertEquals(smallBytes + largeBytes, cache.cachedPinnedBytes());
    }
  }

  @Test
  void theByteBoundEvictsTablesTheCountWouldKeep() throws IOException {
    int tables = 6;
    TableSummary[] s = new TableSummary[tables];
    for (int i = 0; i < tables; i++) {
      s[i] = createTableOf(i + 1, 600);
    }
    long perTable;
    try (TableCache probe = new TableCache(fs, dir, 16, null);
        TableHandle h = probe.acquire(1, s[0].footerOffset())) {
      perTable = h.reader().pinnedBytes();
    }
    // Room for two and a half tables' indexes and filters, and for all six by count.
    long bound = perTable * 5 / 2;
    try (TableCache cache = new TableCache(fs, dir, TableCacheBudget.forOneDatabase(16, bound), null)) {
      assertTrue(cache.keepsAll(tables), "nothing evicted yet");
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < tables; i++) {
          try (TableHandle h = cache.acquire(i + 1, s[i].footerOffset())) {
            assertTrue(h.reader().mayContain(userKey(5)));
          }
          assertTrue(cache.cachedPinnedBytes() <= bound,
              cache.cachedPinnedBytes() + " pinned over the bound " + bound);
        }
      }
      assertEquals(2, cache.cachedTables());
      assertEquals(2 * tables, cache.opens(), "every acquire reopened: two fit, six cycle");
      assertFalse(cache.keepsAll(tables), "a version of these tables must not keep them");
      assertFalse(cache.keepsAll(1), "the byte bound, once reached, stops every version keeping");
    }
    try (TableCache unbounded = new TableCache(fs, dir, TableCacheBudget.forOneDatabase(16, 0), null)) {
      for (int i = 0; i < tables; i++) {
        unbounded.acquire(i + 1, s[i].footerOffset()).close();
      }
      assertEquals(tables, unbounded.cachedTables());
      assertTrue(unbounded.keepsAll(16));
      assertFalse(unbounded.keepsAll(17), "the count still bounds");
    }
  }

  @Test
  void everyWayATableLeavesTakesItsBytesOutOfTheCacheAndTheBudget() throws IOException {
    TableSummary[] s = {createTableOf(1, 300), createTableOf(2, 300), createTableOf(3, 300)};
    TableCacheBudget budget = TableCacheBudget.shared(16, 0);
    TableCache cache = new TableCache(fs, dir, budget, null);
    long third;
    for (int i = 0; i < 3; i++) {
      cache.acquire(i + 1, s[i].footerOffset()).close();
    }
    try (TableHandle h = cache.acquire(3, s[2].footerOffset())) {
      third = h.reader().pinnedBytes();
    }
    cache.evict(1);
    cache.evictFooter(2, s[1].footerOffset());
    assertEquals(third, cache.cachedPinnedBytes());
    assertEquals(third, budget.bytes());
    assertEquals(1, budget.files());
    cache.close();
    assertEquals(0, cache.cachedPinnedBytes());
    assertEquals(0, budget.bytes());
    assertEquals(0, budget.files());
  }

  @Test
  void aCacheAloneInASharedBudgetEvictingOverTheCountStillLetsATreeThatFitsBeKept() throws IOException {
    TableSummary[] s = {createTableOf(1, 30), createTableOf(2, 30), createTableOf(3, 30)};
    TableCacheBudget budget = TableCacheBudget.shared(2, 0);
    try (TableCache alone = new TableCache(fs, dir, budget, null)) {
      for (int i = 0; i < 3; i++) {
        alone.acquire(i + 1, s[i].footerOffset()).close();
      }
      assertEquals(2, alone.cachedTables());
      assertTrue(budget.keepsAll(2), "a moment over the count (a compaction's outputs) is no crowding");
      try (TableCache other = new TableCache(fs, dir, budget, null)) {
        other.acquire(1, s[0].footerOffset()).close();
        alone.acquire(3, s[2].footerOffset()).close();
        assertFalse(budget.keepsAll(2), "another database's tables crowd this one's");
      }
    }
  }

  @Test
  void aTableLargerThanTheByteBoundIsStillServedAndKeptAlone() throws IOException {
    TableSummary a = createTableOf(1, 600);
    TableSummary b = createTableOf(2, 600);
    try (TableCache cache = new TableCache(fs, dir, TableCacheBudget.forOneDatabase(16, 1), null)) {
      try (TableHandle h = cache.acquire(1, a.footerOffset())) {
        assertTrue(h.reader().mayContain(userKey(7)));
      }
      try (TableHandle h = cache.acquire(2, b.footerOffset())) {
        assertTrue(h.reader().mayContain(userKey(7)));
      }
      assertEquals(1, cache.cachedTables(), "the table just opened stays; the one before goes");
      assertEquals(1, cache.openTables());
    }
  }

  @Test
  void aNewFooterOffsetOfTheSameFileOpensANewReader() throws IOException {
    TableSummary first = createTable(5, "old");
    TableSummary second;
    Path path = FileNames.tablePath(dir, 5);
    try (WritableFile f = fs.openForAppend(path, first.fileSize(), IoTag.compaction(2))) {
      second = writeTable(f, first.footerOffset(), 1, "new");
    }
    try (TableCache cache = new TableCache(fs, dir, 10, null)) {
      try (TableHandle oldHandle = cache.acquire(5, first.footerOffset());
           TableHandle newHandle = cache.acquire(5, second.footerOffset())) {
        assertEquals("old", valueOf(oldHandle));
        assertEquals("new", valueOf(newHandle));
        assertEquals(1, newHandle.reader().properties().extent());
      }
      cache.evictFooter(5, first.footerOffset());
      assertEquals(1, cache.cachedTables());
      assertEquals(1, cache.openTables());
      try (TableHandle h = cache.acquire(5, second.footerOffset())) {
        assertArrayEquals("new".getBytes(StandardCharsets.UTF_8),
            h.reader().get(userKey(1), InternalKey.MAX_SEQUENCE, false).value());
      }
      assertEquals(2, cache.opens());
    }
  }

  /**
   * Readers acquire and release tables on hits without the lock while others open tables and
   * evict: every handle reads its own table, and once all are released exactly the cached tables
   * stay open; closing the cache closes them all.
   */
  @Test
  void concurrentHitsOpensAndEvictionsKeepEveryHeldReaderOpen() throws Exception {
    int tables = 12;
    long[] footers = new long[tables];
    for (int i = 0; i < tables; i++) {
      footers[i] = createTable(100 + i, "v" + i).footerOffset();
    }
    HeapBlockCache blocks = new HeapBlockCache(1 << 20);
    TableCache cache = new TableCache(fs, dir, 4, blocks);
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<Integer>> done = new java.util.ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int seed = t;
        done.add(pool.submit(() -> {
          java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
          int reads = 0;
          for (int n = 0; n < 3_000; n++) {
            // Mostly a hot few tables (hits), sometimes a cold one (an open and an eviction).
            int i = r.nextInt(10) < 8 ? r.nextInt(3) : 3 + r.nextInt(tables - 3);
            try (TableHandle h = cache.acquire(100 + i, footers[i])) {
              assertEquals("v" + i, valueOf(h));
              reads++;
            }
          }
          return reads;
        }));
      }
      for (java.util.concurrent.Future<Integer> f : done) {
        assertEquals(3_000, f.get());
      }
      assertTrue(cache.cachedTables() <= 4, "over capacity: " + cache.cachedTables());
      assertEquals(cache.cachedTables(), cache.openTables(), "a released, evicted reader stayed open");
      assertTrue(cache.opens() > tables, "the cold tables were evicted and reopened");
    } finally {
      pool.shutdownNow();
      cache.close();
    }
    assertEquals(0, cache.openTables());
    assertEquals(0, blocks.pinned());
  }

  /** Table files whose close fails, as a descriptor close can (NFS, a dying disk). */
  private static final class FailingCloses extends ForwardingFileSystem {
    FailingCloses(FileSystem delegate) {
      super(delegate);
    }

    @Override
    public ReadableFile openReadable(Path path) throws IOException {
      return new ForwardingFileSystem.ForwardingReadableFile(super.openReadable(path)) {
        @Override
        public void close() throws IOException {
          super.close();
          throw new IOException("close failed: " + path.getFileName());
        }
      };
    }
  }

  @Test
  void aTableThatFailsToCloseOnEvictionFailsNoReadAndLeavesNoOtherOpen() throws IOException {
    TableSummary[] s = {createTableOf(1, 30), createTableOf(2, 30), createTableOf(3, 30), createTableOf(4, 30)};
    FailingCloses failing = new FailingCloses(fs);
    TableCacheBudget budget = TableCacheBudget.shared(2, 0);
    try (TableCache keeper = new TableCache(failing, dir, budget, null);
         TableCache reader = new TableCache(fs, dir, budget, null)) {
      keeper.acquire(1, s[0].footerOffset()).close();
      keeper.acquire(2, s[1].footerOffset()).close();
      // The shared budget is full of the keeper's tables: the reader's read takes one of them,
      // whose close fails; the read is served all the same.
      try (TableHandle h = reader.acquire(3, s[2].footerOffset())) {
        assertTrue(h.reader().mayContain(userKey(7)));
      }
      assertEquals(1, keeper.cachedTables());
      assertEquals(1, keeper.openTables(), "the table given up is closed, its failure logged");
      keeper.acquire(4, s[3].footerOffset()).close();
      keeper.acquire(1, s[0].footerOffset()).close();
      assertEquals(budget.files(), keeper.openTables() + reader.openTables());
      keeper.close();
      assertEquals(0, keeper.openTables(), "closing releases every table though each close fails");
    }
    assertEquals(0, budget.files());
  }

  @Test
  void underTheByteBoundTheCachePinningTheMostBytesGivesRoomNotTheOneKeepingTheMostTables() throws IOException {
    TableSummary[] large = {createTableOf(1, 600), createTableOf(2, 600)};
    TableSummary[] small = {createTableOf(3, 30), createTableOf(4, 30), createTableOf(5, 30), createTableOf(6, 30)};
    long largeBytes;
    long smallBytes;
    try (TableCache probe = new TableCache(fs, dir, 16, null)) {
      try (TableHandle l = probe.acquire(1, large[0].footerOffset());
           TableHandle s = probe.acquire(3, small[0].footerOffset())) {
        largeBytes = l.reader().pinnedBytes();
        smallBytes = s.reader().pinnedBytes();
      }
    }
    assertTrue(largeBytes > 4 * smallBytes, largeBytes + " against " + smallBytes);
    // Room for both large tables and three small ones: the fourth passes the byte bound only.
    TableCacheBudget budget = TableCacheBudget.shared(100, 2 * largeBytes + 3 * smallBytes + smallBytes / 2);
    try (TableCache few = new TableCache(fs, dir, budget, null);
         TableCache many = new TableCache(fs, dir, budget, null)) {
      few.acquire(1, large[0].footerOffset()).close();
      few.acquire(2, large[1].footerOffset()).close();
      for (int i = 0; i < 4; i++) {
        many.acquire(3 + i, small[i].footerOffset()).close();
      }
      assertEquals(1, few.cachedTables(), "the two large tables pinned the most bytes: one gave room");
      assertEquals(4, many.cachedTables(), "the database of more, smaller tables keeps them all");
      assertTrue(budget.bytes() <= budget.maxBytes());
    }
  }

  @Test
  void anEvictionForTheByteBoundStopsVersionsKeepingTablesEvenWhenItLeavesTheCacheWellUnderIt() throws IOException {
    TableSummary a = createTableOf(1, 300);
    TableSummary b = createTableOf(2, 300);
    long one;
    try (TableCache probe = new TableCache(fs, dir, 16, null); TableHandle h = probe.acquire(1, a.footerOffset())) {
      one = h.reader().pinnedBytes();
    }
    // One and a half tables: the second evicts the first, leaving one, two thirds of the bound.
    try (TableCache cache = new TableCache(fs, dir, TableCacheBudget.forOneDatabase(16, one * 3 / 2), null)) {
      cache.acquire(1, a.footerOffset()).close();
      assertTrue(cache.keepsAll(1));
      cache.acquire(2, b.footerOffset()).close();
      assertEquals(1, cache.cachedTables());
      assertFalse(cache.keepsAll(1), "the tables read do not fit: versions must not keep them");
    }
  }
}

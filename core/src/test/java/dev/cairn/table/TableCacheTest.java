package dev.cairn.table;

import static dev.cairn.table.TableTestSupport.userKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.fs.FileNames;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.LocalFileSystem;
import dev.cairn.fs.WritableFile;
import dev.cairn.key.InternalKey;
import dev.cairn.key.LookupResult;
import dev.cairn.key.ValueType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
}

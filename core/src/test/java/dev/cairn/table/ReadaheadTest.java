package dev.cairn.table;

import static dev.cairn.table.TableTestSupport.build;
import static dev.cairn.table.TableTestSupport.userKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.CorruptionException;
import dev.cairn.fs.fake.InMemoryFile;
import dev.cairn.fs.IoPurpose;
import dev.cairn.fs.IoTag;
import dev.cairn.iter.InternalIterator;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.ValueType;
import dev.cairn.table.block.BlockHandle;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Read-ahead of table iterators: on files that bypass the page cache, when it starts, how its
 * spans grow, that it never changes what an iterator returns, that damage inside a span is still
 * reported with the block's offset, and that point reads are left alone; on page-cache files,
 * that a compaction reads in spans and a user's scan block by block; on appended tables, that a
 * compaction reads each stretch of the blocks the index names once, passing over no wider gap of
 * garbage than the bound, and that a filter rebuild reads the reused blocks a stretch at a time.
 */
class ReadaheadTest {
  private static final int ALIGNMENT = 4096;
  private static final int ENTRIES = 2_000;
  private static final IoTag COMPACTION = new IoTag(IoPurpose.COMPACTION, 2);

  private final TreeMap<byte[], byte[]> model = model();

  @Test
  void aUserScanReadsTwoBlocksAloneThenSpansDoublingUpTo256KiB() throws IOException {
    RecordingFile file = table(ALIGNMENT);
    ReadaheadBuffers buffers = new ReadaheadBuffers();
    try (TableReader r = open(file, buffers)) {
      file.reads.clear();
      assertScanned(r, IoTag.USER_READ);

      List<Integer> lengths = file.lengths();
      assertEquals(r.dataBlockBytes(0), (long) lengths.get(0), "the first block alone");
      assertEquals(r.dataBlockBytes(1), (long) lengths.get(1), "the second block alone");
      assertEquals(8 << 10, (int) lengths.get(2), "then 8 KiB");
      assertEquals(16 << 10, (int) lengths.get(3), "doubling");
      assertEquals(32 << 10, (int) lengths.get(4));
      assertTrue(lengths.contains(ReadaheadBuffers.BUFFER_BYTES), "grows to 256 KiB: " + lengths);
      assertTrue(lengths.stream().allMatch(n -> n <= ReadaheadBuffers.BUFFER_BYTES), "never more");
      assertTrue(lengths.size() < r.dataBlockCount() / 10,
          lengths.size() + " reads for " + r.dataBlockCount() + " blocks");
    }
    assertEquals(1, buffers.idleCount(), "the iterator gave its buffer back when it closed");
  }

  @Test
  void aCompactionReadsTheWholeSpanFromItsSecondBlock() throws IOException {
    RecordingFile file = table(ALIGNMENT);
    try (TableReader r = open(file, new ReadaheadBuffers())) {
      file.reads.clear();
      assertScanned(r, COMPACTION);
      List<Integer> lengths = file.lengths();
      assertEquals(r.dataBlockBytes(0), (long) lengths.get(0), "the first block alone");
      assertEquals(ReadaheadBuffers.BUFFER_BYTES, (int) lengths.get(1));
    }
  }

  @Test
  void seeksThatLandFarApartReadOneBlockEach() throws IOException {
    RecordingFile file = table(ALIGNMENT);
    try (TableReader r = open(file, new ReadaheadBuffers())) {
      file.reads.clear();
      Random rnd = new Random(3);
      int seeks = 0;
      for (int i = 0; i < 50; i++) {
        // Two seeks into blocks far apart, in one iterator: never sequential.
        try (InternalIterator it = r.iterator(false, IoTag.USER_READ)) {
          for (int k : new int[] {rnd.nextInt(ENTRIES / 2), ENTRIES / 2 + rnd.nextInt(ENTRIES / 2)}) {
            it.seek(InternalKey.seekKey(userKey(k), ENTRIES + 1));
            assertTrue(it.isValid());
            seeks++;
          }
        }
      }
      assertEquals(seeks, file.reads.size(), "one read per seek");
      assertTrue(file.lengths().stream().allMatch(n -> n < 8 << 10), "each of one block");
    }
  }

  @Test
  void aUserScanOfAPageCacheFileIsReadBlockByBlock() throws IOException {
    RecordingFile file = table(0); // the kernel reads ahead for it
    try (TableReader r = open(file, new ReadaheadBuffers())) {
      file.reads.clear();
      assertScanned(r, IoTag.USER_READ);
      assertEquals(r.dataBlockCount(), file.reads.size());
    }
  }

  @Test
  void aCompactionReadsAPageCacheFileInSpansToo() throws IOException {
    RecordingFile file = table(0);
    ReadaheadBuffers buffers = new ReadaheadBuffers();
    try (TableReader r = open(file, buffers)) {
      file.reads.clear();
      assertScanned(r, COMPACTION);
      List<Integer> lengths = file.lengths();
      assertEquals(r.dataBlockBytes(0), (long) lengths.get(0), "the first block alone");
      assertEquals(ReadaheadBuffers.BUFFER_BYTES, (int) lengths.get(1));
      assertTrue(lengths.size() < r.dataBlockCount() / 30,
          lengths.size() + " reads for " + r.dataBlockCount() + " blocks");
      for (long[] read : file.reads.subList(1, file.reads.size())) {
        assertEquals(0, read[0] % Readahead.PAGE_CACHE_SPAN_ALIGNMENT, "spans start on a page: " + read[0]);
      }
    }
    assertEquals(1, buffers.idleCount(), "the iterator gave its buffer back when it closed");
  }

  @Test
  void aCompactionPassesOverNoWiderGapOfAnAppendedTableThanTheBound() throws IOException {
    InMemoryFile memory = appendedTable();
    for (int alignment : new int[] {ALIGNMENT, 0}) {
      RecordingFile file = new RecordingFile(memory, alignment);
      try (TableReader r = open(file, new ReadaheadBuffers())) {
        List<long[]> referenced = referencedBlocks(r);
        referenced.sort((a, b) -> Long.compare(a[0], b[0]));
        file.reads.clear();
        assertScanned(r, COMPACTION);
        assertTrue(file.lengths().stream().anyMatch(n -> n >= 16 << 10), "spans still: " + file.lengths());
        int span = Math.max(alignment, Readahead.PAGE_CACHE_SPAN_ALIGNMENT);
        for (long[] read : file.reads) {
          // Unreferenced bytes inside a read: an aligned edge at either end, else gaps no wider
          // than the bound between the blocks it holds.
          long from = read[0];
          long to = read[0] + read[1];
          long at = from;
          for (long[] block : referenced) {
            if (block[1] <= from || block[0] >= to) {
              continue;
            }
            long gap = block[0] - at;
            assertTrue(gap < (at == from ? span : Readahead.MAX_GAP_BYTES + 1), "a read of " + read[1]
                + " bytes at " + from + " passes over " + gap + " unreferenced bytes at " + at);
            at = Math.max(at, block[1]);
          }
          assertTrue(to - at < span, "a read of " + read[1] + " bytes at " + from + " ends " + (to - at)
              + " bytes past its last block");
        }
      }
    }
  }

  @Test
  void aCompactionReadsEachStretchOfAnAppendedTablesBlocksOnce() throws IOException {
    InMemoryFile memory = appendedTable();
    RecordingFile file = new RecordingFile(memory, ALIGNMENT);
    ReadaheadBuffers buffers = new ReadaheadBuffers();
    try (TableReader r = open(file, buffers)) {
      // The blocks the index names, in file order, fall into stretches at most the gap bound
      // apart: the clean runs with the garbage between, and the appended tail. Each is read once,
      // in spans.
      List<long[]> referenced = referencedBlocks(r);
      referenced.sort((a, b) -> Long.compare(a[0], b[0]));
      int runs = 0; // runs of blocks back to back: what the garbage cuts the table into
      int stretches = 0;
      long spansNeeded = 0;
      long largestBlock = referenced.stream().mapToLong(x -> x[1] - x[0]).max().orElseThrow();
      // A span after the first of a long stretch starts at the aligned start of the block the one
      // before could not hold whole, so it brings a little less than a buffer of new bytes.
      long newBytesPerSpan = ReadaheadBuffers.BUFFER_BYTES - 2L * ALIGNMENT - largestBlock;
      for (int i = 0; i < referenced.size(); i++) {
        long start = referenced.get(i)[0];
        runs++;
        while (i + 1 < referenced.size()
            && referenced.get(i + 1)[0] - referenced.get(i)[1] <= Readahead.MAX_GAP_BYTES) {
          runs += referenced.get(i + 1)[0] == referenced.get(i)[1] ? 0 : 1;
          i++;
        }
        stretches++;
        spansNeeded += (referenced.get(i)[1] - start + newBytesPerSpan - 1) / newBytesPerSpan;
      }
      assertTrue(runs > 100, "the appended table interleaves clean runs, garbage and its tail: " + runs);
      file.reads.clear();
      assertScanned(r, COMPACTION);
      assertTrue(file.reads.size() <= 1 + spansNeeded, file.reads.size() + " reads for " + runs
          + " runs of blocks in " + stretches + " stretches, which " + spansNeeded
          + " spans cover (and the first block alone)");
      // Two reads share at most the aligned page a span starts on and the block the span before
      // could not hold whole: no stretch is read again.
      for (int i = 0; i < file.reads.size(); i++) {
        for (int j = i + 1; j < file.reads.size(); j++) {
          long[] a = file.reads.get(i);
          long[] b = file.reads.get(j);
          long shared = Math.min(a[0] + a[1], b[0] + b[1]) - Math.max(a[0], b[0]);
          assertTrue(shared <= ALIGNMENT + largestBlock,
              a[1] + " bytes at " + a[0] + " and " + b[1] + " bytes at " + b[0] + " share " + shared);
        }
      }
    }
    assertTrue(buffers.idleCount() >= 2 && buffers.idleCount() <= Readahead.MAX_SPANS,
        "a span for the clean blocks and one for the tail, all given back: " + buffers.idleCount());
  }

  @Test
  void aFilterRebuildReadsTheReusedBlocksInSpans() throws IOException {
    List<Map.Entry<byte[], byte[]>> incoming = new ArrayList<>();
    for (int k = 0; k < ENTRIES; k += 31) {
      byte[] key = InternalKey.encode(userKey(k), ENTRIES + 1 + k, ValueType.VALUE);
      incoming.add(Map.entry(key, new byte[1000]));
    }
    // The same append twice: ORing into the old filter, and rebuilding it (a false-positive rate
    // no filter meets); the difference in reads is the rebuild's.
    int[] reads = new int[2];
    int stretches = 0;
    int reused = 0;
    for (int rebuild = 0; rebuild < 2; rebuild++) {
      InMemoryFile memory = new InMemoryFile();
      long firstFooter = build(memory, new TableOptions(4096, 16, 10), model).footerOffset();
      RecordingFile file = new RecordingFile(memory, ALIGNMENT);
      TableAppender.Result r;
      try (TableReader old = TableReader.open(file, "t.sst", 7, firstFooter, null, new ReadaheadBuffers())) {
        r = new TableAppender(old, file, memory, new TableOptions(4096, 16, 10), rebuild == 1 ? 1e-9 : 0.5,
            it -> it, COMPACTION).append(incoming);
      }
      assertEquals(rebuild == 1, r.filterRebuilt());
      reads[rebuild] = file.reads.size();
      try (TableReader appended = TableReader.open(memory, "t.sst", 7, r.summary().footerOffset(), null)) {
        stretches = 0;
        reused = 0;
        long end = -1;
        for (int i = 0; i < appended.index().size(); i++) {
          BlockHandle h = appended.index().handle(i);
          if (h.offset() < firstFooter) {
            reused++;
            stretches += h.offset() == end ? 0 : 1;
            end = h.end();
          }
        }
      }
    }
    assertTrue(stretches * 3 < reused, stretches + " stretches of " + reused + " reused blocks");
    int rebuildReads = reads[1] - reads[0];
    assertTrue(rebuildReads <= stretches + 1, rebuildReads + " reads to rebuild the filter over " + reused
        + " reused blocks in " + stretches + " stretches: one a stretch (the first block alone)");
  }

  /**
   * {@link #model} as one table, then every seventh key updated by an append: more than half of the
   * blocks dirty, spread over the file, their old copies left as garbage between the clean ones
   * and their new ones at the tail. Sets {@link #footerOffset} to the appended footer.
   */
  private InMemoryFile appendedTable() throws IOException {
    InMemoryFile memory = new InMemoryFile();
    long firstFooter = build(memory, new TableOptions(4096, 16, 10), model).footerOffset();
    List<Map.Entry<byte[], byte[]>> incoming = new ArrayList<>();
    for (int k = 0; k < ENTRIES; k += 7) {
      byte[] key = InternalKey.encode(userKey(k), ENTRIES + 1 + k, ValueType.VALUE);
      byte[] value = new byte[1000];
      incoming.add(Map.entry(key, value));
      model.put(key, value);
    }
    try (TableReader old = TableReader.open(memory, "t.sst", 7, firstFooter, null)) {
      footerOffset = new TableAppender(old, memory, memory, new TableOptions(4096, 16, 10), 0.02, it -> it,
          IoTag.USER_READ).append(incoming).summary().footerOffset();
    }
    return memory;
  }

  /** Each data block the index names, as {from, to} in the file (its trailer included). */
  private static List<long[]> referencedBlocks(TableReader r) {
    List<long[]> referenced = new ArrayList<>();
    for (int i = 0; i < r.index().size(); i++) {
      referenced.add(new long[] {r.index().handle(i).offset(), r.index().handle(i).end()});
    }
    return referenced;
  }

  @Test
  void aScanThroughTheBlockCacheReturnsTheSameAndCachesEveryBlock() throws IOException {
    RecordingFile file = table(ALIGNMENT);
    HeapBlockCache cache = new HeapBlockCache(64 << 20);
    try (TableReader r = TableReader.open(file, "t.sst", 7, footerOffset, cache,
        new ReadaheadBuffers())) {
      file.reads.clear();
      try (InternalIterator it = r.iterator(true, IoTag.USER_READ)) {
        int n = 0;
        for (it.seekToFirst(); it.isValid(); it.next()) {
          n++;
        }
        assertEquals(model.size(), n);
      }
      assertEquals(r.dataBlockCount(), cache.cachedBlockCount(7), "every block cached");
      int reads = file.reads.size();
      assertScanned(r, IoTag.USER_READ); // fillCache false: served by the cache
      assertEquals(reads, file.reads.size(), "a second scan reads nothing");
    }
  }

  @Test
  void damageInsideASpanIsReportedWithTheBlocksOffset() throws IOException {
    RecordingFile clean = table(ALIGNMENT);
    long damagedBlock;
    try (TableReader r = open(clean, null)) {
      damagedBlock = r.dataBlockOffset(20); // well inside the read-ahead
    }
    byte[] bytes = clean.file.bytes();
    bytes[(int) damagedBlock + 100] ^= 0x40;
    RecordingFile damaged = new RecordingFile(new InMemoryFile(bytes), ALIGNMENT);
    try (TableReader r = open(damaged, new ReadaheadBuffers())) {
      CorruptionException e = assertThrows(CorruptionException.class,
          () -> scanAll(r, IoTag.USER_READ));
      assertEquals("t.sst", e.file());
      assertEquals(damagedBlock, e.offset());
      assertTrue(damaged.lengths().stream().anyMatch(n -> n >= 16 << 10),
          "the block came from a span: " + damaged.lengths());
    }
  }

  @Test
  void aCompactionThatSeeksBackAfterLaterSpansReplacedTheFirstReadsTheRightEntries()
      throws IOException {
    RecordingFile file = table(0);
    List<byte[]> keys = new ArrayList<>(model.keySet());
    try (TableReader r = open(file, new ReadaheadBuffers());
        InternalIterator it = r.iterator(false, COMPACTION)) {
      // Walk far enough that later spans replaced the first, then seek back into it and on.
      it.seekToFirst();
      for (int i = 0; i < keys.size() * 3 / 4; i++) {
        assertArrayEquals(model.get(keys.get(i)), it.value(), "value " + i);
        it.next();
      }
      for (int start : new int[] {5, keys.size() / 2, 1}) {
        it.seek(keys.get(start));
        for (int i = start; i < start + 40; i++) {
          assertArrayEquals(keys.get(i), it.key(), "key " + i + " after a seek to " + start);
          assertArrayEquals(model.get(keys.get(i)), it.value(), "value " + i + " after a seek to " + start);
          it.next();
        }
      }
    }
  }

  @Test
  void damageInACompactionsSpanIsReportedWithTheBlocksOffset() throws IOException {
    RecordingFile clean = table(0);
    long damagedBlock;
    try (TableReader r = open(clean, null)) {
      damagedBlock = r.dataBlockOffset(20);
    }
    byte[] bytes = clean.file.bytes();
    bytes[(int) damagedBlock + 100] ^= 0x40;
    RecordingFile damaged = new RecordingFile(new InMemoryFile(bytes), 0);
    try (TableReader r = open(damaged, new ReadaheadBuffers())) {
      CorruptionException e = assertThrows(CorruptionException.class, () -> scanAll(r, COMPACTION));
      assertEquals("t.sst", e.file());
      assertEquals(damagedBlock, e.offset());
      assertTrue(damaged.lengths().contains(ReadaheadBuffers.BUFFER_BYTES),
          "the block came from a span: " + damaged.lengths());
    }
  }

  private void assertScanned(TableReader r, IoTag tag) {
    List<Map.Entry<byte[], byte[]>> got = scanAll(r, tag);
    List<Map.Entry<byte[], byte[]>> want = new ArrayList<>(model.entrySet());
    assertEquals(want.size(), got.size());
    for (int i = 0; i < want.size(); i++) {
      assertArrayEquals(want.get(i).getKey(), got.get(i).getKey(), "key " + i);
      assertArrayEquals(want.get(i).getValue(), got.get(i).getValue(), "value " + i);
    }
  }

  private static List<Map.Entry<byte[], byte[]>> scanAll(TableReader r, IoTag tag) {
    List<Map.Entry<byte[], byte[]>> out = new ArrayList<>();
    try (InternalIterator it = r.iterator(false, tag)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        out.add(Map.entry(it.key(), it.ownedValue()));
      }
    }
    return out;
  }

  private long footerOffset;

  private RecordingFile table(int alignment) throws IOException {
    InMemoryFile file = new InMemoryFile();
    footerOffset = build(file, new TableOptions(4096, 16, 10), model).footerOffset();
    return new RecordingFile(file, alignment);
  }

  private TableReader open(RecordingFile file, ReadaheadBuffers buffers) throws IOException {
    return TableReader.open(file, "t.sst", 7, footerOffset, null, buffers);
  }

  /** ~2 MiB of 1 KiB values: about 500 blocks. */
  private static TreeMap<byte[], byte[]> model() {
    TreeMap<byte[], byte[]> m = new TreeMap<>(InternalKeyComparator.INSTANCE);
    Random rnd = new Random(11);
    for (int i = 0; i < ENTRIES; i++) {
      byte[] value = new byte[1000 + rnd.nextInt(48)];
      rnd.nextBytes(value);
      m.put(InternalKey.encode(userKey(i), i + 1, ValueType.VALUE), value);
    }
    return m;
  }
}

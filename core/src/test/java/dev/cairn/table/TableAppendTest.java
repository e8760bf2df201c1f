package dev.cairn.table;

import dev.cairn.fs.fake.InMemoryFile;
import static dev.cairn.table.TableTestSupport.build;
import static dev.cairn.table.TableTestSupport.expected;
import static dev.cairn.table.TableTestSupport.randomModel;
import static dev.cairn.table.TableTestSupport.userKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.fs.IoTag;
import dev.cairn.iter.InternalIterator;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.LookupResult;
import dev.cairn.key.ValueType;
import dev.cairn.table.block.BlockBuilder;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockIterator;
import dev.cairn.table.block.BlockTrailer;
import dev.cairn.table.filter.BloomFilterBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Block compaction by hand (docs/format.md section 8): append rewritten "dirty" blocks, a new block
 * past the old end, and a new filter, properties, index and footer to an existing table without
 * touching its bytes; then read both footers.
 */
class TableAppendTest {
  private static final InternalKeyComparator CMP = InternalKeyComparator.INSTANCE;
  private static final TableOptions OPTIONS = new TableOptions(256, 4, 10);

  @Test
  void appendedFooterSeesNewTableOldFooterSeesOldTable() throws IOException {
    TreeMap<byte[], byte[]> oldModel = randomModel(new Random(7), 600, 150);
    InMemoryFile file = new InMemoryFile();
    TableSummary first = build(file, OPTIONS, oldModel);
    byte[] oldBytes = file.bytes();
    HeapBlockCache cache = new HeapBlockCache(1 << 20);

    TreeMap<byte[], byte[]> newModel = new TreeMap<>(CMP);
    long footer1;
    try (TableReader old = TableReader.open(file, "a.sst", 3, first.footerOffset(), cache)) {
      TableIndex index = old.index();
      assertTrue(index.size() >= 6, "need several blocks, have " + index.size());
      BlockBuilder newIndex = new BlockBuilder(1, CMP, 1024);
      long dataBytes = 0;
      for (int i = 0; i < index.size(); i++) {
        List<Map.Entry<byte[], byte[]>> entries = entriesOf(old, index.handle(i));
        if (i % 2 == 0) {
          // Clean: reuse the old block and its index entry as they are.
          entries.forEach(e -> newModel.put(e.getKey(), e.getValue()));
          newIndex.add(index.separator(i), index.handle(i).encode());
          dataBytes += index.handle(i).size() + BlockTrailer.SIZE;
        } else {
          // Dirty: merge a newer version of each key in; all keys stay within the old range.
          TreeMap<byte[], byte[]> merged = new TreeMap<>(CMP);
          for (Map.Entry<byte[], byte[]> e : entries) {
            merged.put(e.getKey(), e.getValue());
            byte[] newer = InternalKey.encode(InternalKey.userKey(e.getKey()),
                InternalKey.sequence(e.getKey()) + 1_000_000, ValueType.VALUE);
            // Rule 1 of section 8: new keys must stay inside the block's old range.
            if (CMP.compare(newer, index.separator(i - 1)) > 0) {
              merged.put(newer, ("new" + i).getBytes(StandardCharsets.UTF_8));
            }
          }
          newModel.putAll(merged);
          BlockHandle h = appendBlock(file, merged);
          newIndex.add(index.separator(i), h.encode());
          dataBytes += h.size() + BlockTrailer.SIZE;
        }
      }
      // A new block past the old table's end.
      TreeMap<byte[], byte[]> tail = new TreeMap<>(CMP);
      for (int k = 0; k < 10; k++) {
        tail.put(InternalKey.encode(userKey(900_000 + k), 5_000_000 + k, ValueType.VALUE),
            ("tail" + k).getBytes(StandardCharsets.UTF_8));
      }
      newModel.putAll(tail);
      BlockHandle tailHandle = appendBlock(file, tail);
      newIndex.add(tail.lastKey(), tailHandle.encode());
      dataBytes += tailHandle.size() + BlockTrailer.SIZE;

      footer1 = appendMetadata(file, newModel, newIndex.finish(), index.size() + 1, dataBytes,
          first.footerOffset());
    }
    // Not one old byte moved.
    assertArrayEquals(oldBytes, java.util.Arrays.copyOf(file.bytes(), oldBytes.length));
    // A torn later append after the new footer is ignored.
    file.append(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9});

    try (TableReader old = TableReader.open(file, "a.sst", 3, first.footerOffset(), cache);
         TableReader current = TableReader.open(file, "a.sst", 3, footer1, cache)) {
      assertMatches(oldModel, old);
      long hitsBefore = cache.stats().hits();
      assertMatches(newModel, current);
      assertTrue(cache.stats().hits() > hitsBefore, "reused blocks are served from the cache");
      current.verifyChecksums();
      assertEquals(1, current.properties().extent());
      assertEquals(first.footerOffset(), current.footer().previousFooterOffset());
      // The new index jumps back and forth across the file.
      TableIndex idx = current.index();
      boolean outOfFileOrder = false;
      for (int i = 1; i < idx.size(); i++) {
        outOfFileOrder |= idx.handle(i).offset() < idx.handle(i - 1).offset();
      }
      assertTrue(outOfFileOrder);
      String dump = TableDump.render(file, "a.sst", footer1);
      assertTrue(dump.contains("footer @" + footer1), dump);
      assertTrue(dump.contains("footer @" + first.footerOffset()), dump);
    }
    assertEquals(0, cache.pinned());
  }

  private static List<Map.Entry<byte[], byte[]>> entriesOf(TableReader r, BlockHandle h) {
    List<Map.Entry<byte[], byte[]>> out = new ArrayList<>();
    try (BlockRef ref = r.acquireDataBlock(h, true, IoTag.USER_READ);
         BlockIterator it = ref.block().iterator(CMP)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        out.add(Map.entry(it.key(), it.value()));
      }
    }
    return out;
  }

  private static BlockHandle appendBlock(InMemoryFile file, byte[] contents) {
    long offset = file.size();
    file.append(contents, 0, contents.length);
    byte[] trailer = BlockTrailer.encode(contents, 0, contents.length);
    file.append(trailer, 0, trailer.length);
    return new BlockHandle(offset, contents.length);
  }

  private static BlockHandle appendBlock(InMemoryFile file, TreeMap<byte[], byte[]> entries) {
    BlockBuilder b = new BlockBuilder(OPTIONS.restartInterval(), CMP, 4096);
    entries.forEach(b::add);
    return appendBlock(file, b.finish());
  }

  /** Writes filter, properties, index and footer for {@code model}; returns the footer offset. */
  private static long appendMetadata(InMemoryFile file, TreeMap<byte[], byte[]> model, byte[] index,
      long dataBlocks, long dataBytes, long previousFooter) {
    BloomFilterBuilder filter = new BloomFilterBuilder(OPTIONS.bloomBitsPerKey());
    byte[] lastUser = null;
    long deletions = 0;
    long rawKeys = 0;
    long rawValues = 0;
    long minSeq = Long.MAX_VALUE;
    long maxSeq = 0;
    for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
      byte[] user = InternalKey.userKey(e.getKey());
      if (lastUser == null || !java.util.Arrays.equals(user, lastUser)) {
        filter.addKey(user);
      }
      lastUser = user;
      deletions += InternalKey.type(e.getKey()) == ValueType.DELETION ? 1 : 0;
      rawKeys += e.getKey().length;
      rawValues += e.getValue().length;
      minSeq = Math.min(minSeq, InternalKey.sequence(e.getKey()));
      maxSeq = Math.max(maxSeq, InternalKey.sequence(e.getKey()));
    }
    BlockHandle filterHandle = appendBlock(file, filter.finish());
    TableProperties props = new TableProperties(model.size(), deletions, model.firstKey(),
        model.lastKey(), minSeq, maxSeq, rawKeys, rawValues, dataBlocks, dataBytes,
        index.length + BlockTrailer.SIZE, filterHandle.size() + BlockTrailer.SIZE,
        OPTIONS.bloomBitsPerKey(), 0, "append-test", 1);
    BlockHandle propsHandle = appendBlock(file, props.encode());
    BlockHandle indexHandle = appendBlock(file, index);
    long footerOffset = file.size();
    byte[] footer = new Footer(indexHandle, filterHandle, propsHandle, previousFooter,
        Footer.FORMAT_VERSION).encode();
    file.append(footer, 0, footer.length);
    return footerOffset;
  }

  private static void assertMatches(TreeMap<byte[], byte[]> model, TableReader r) {
    List<Map.Entry<byte[], byte[]>> want = new ArrayList<>(model.entrySet());
    try (InternalIterator it = r.iterator(true, IoTag.USER_READ)) {
      int i = 0;
      for (it.seekToFirst(); it.isValid(); it.next(), i++) {
        assertArrayEquals(want.get(i).getKey(), it.key(), "entry " + i);
        assertArrayEquals(want.get(i).getValue(), it.value(), "entry " + i);
      }
      assertEquals(want.size(), i);
    }
    long maxSeq = model.keySet().stream().mapToLong(InternalKey::sequence).max().orElse(0);
    // Backward too: the index's key order, whatever order the blocks lie in the file.
    java.util.Random rnd = new java.util.Random(maxSeq);
    try (InternalIterator it = r.iterator(true, IoTag.USER_READ)) {
      dev.cairn.iter.IteratorWalk.internal(it, model, CMP, () -> InternalKey.encode(userKey(rnd.nextInt(320)),
          rnd.nextInt((int) maxSeq + 2), ValueType.VALUE), rnd, 2000, "appended table");
    }
    for (int k = 0; k < 310; k++) {
      for (long snap : new long[] {maxSeq / 4, maxSeq / 2, maxSeq}) {
        LookupResult want1 = expected(model, userKey(k), snap);
        LookupResult got = r.get(userKey(k), snap, true);
        assertEquals(want1.kind(), got.kind(), "key " + k + " snap " + snap);
        if (want1.value() != null) {
          assertArrayEquals(want1.value(), got.value());
        }
      }
    }
    for (int k = 0; k < 10; k++) {
      LookupResult want1 = expected(model, userKey(900_000 + k), InternalKey.MAX_SEQUENCE);
      assertEquals(want1.kind(), r.get(userKey(900_000 + k), InternalKey.MAX_SEQUENCE, true).kind());
    }
  }
}

package dev.cairn.table;

import static dev.cairn.table.TableTestSupport.assertScanMatches;
import static dev.cairn.table.TableTestSupport.build;
import static dev.cairn.table.TableTestSupport.userKey;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.fs.IoPurpose;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.fake.InMemoryFile;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.RangeTombstones;
import dev.cairn.key.ValueType;
import dev.cairn.iter.InternalIterator;
import dev.cairn.table.block.BlockHandle;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * How block compaction reads a target's dirty blocks and the clean neighbours it looks at: blocks
 * at most {@link Readahead#MAX_GAP_BYTES} apart share a read, farther ones do not, and every
 * block read is the one its index entry names; on a table written in one
 * piece and on one appended before, whose blocks lie in two regions with garbage between.
 */
class DirtyBlocksReadTest {
  private static final InternalKeyComparator CMP = InternalKeyComparator.INSTANCE;
  private static final int ENTRIES = 2_000;
  private static final TableOptions OPTIONS = new TableOptions(4096, 16, 10);
  private static final IoTag COMPACTION = new IoTag(IoPurpose.COMPACTION, 2);

  private final TreeMap<byte[], byte[]> model = new TreeMap<>(CMP);
  private final InMemoryFile memory = new InMemoryFile();
  private long footerOffset;

  @Test
  void halfTheBlocksDirtyInShortRunsCostTwoReadsNotOneForEachRunAndNeighbour() throws IOException {
    buildTable();
    try (TableReader r = TableReader.open(memory, "t.sst", 7, footerOffset, null)) {
      RecordingFile file = new RecordingFile(memory, 0);
      DirtyBlocks d = find(r, file, everyKth(7));
      int dirty = (int) d.dirtyCount();
      int runs = 0;
      for (int i = 0; i < d.size(); i++) {
        runs += d.isDirty(i) && (i == 0 || !d.isDirty(i - 1)) ? 1 : 0;
      }
      assertTrue(dirty > r.index().size() / 3 && runs > 100, dirty + " dirty blocks in " + runs + " runs");
      // One read for the dirty blocks (the neighbours the widening looks at kept from the bytes it
      // passed over), one for the neighbours past its end.
      assertTrue(file.reads.size() <= 2, file.reads.size() + " reads for " + runs + " runs of dirty blocks");
      assertReadsFollowTheGapRule(r, d, file.reads);
    }
  }

  @Test
  void dirtyBlocksFartherApartThanTheGapAreReadApart() throws IOException {
    buildTable();
    try (TableReader r = TableReader.open(memory, "t.sst", 7, footerOffset, null)) {
      RecordingFile file = new RecordingFile(memory, 0);
      DirtyBlocks d = find(r, file, everyKth(97)); // a dirty block every 25 or so, 100 KiB apart
      assertTrue(file.reads.size() >= d.dirtyCount(), file.reads.size() + " reads for " + d.dirtyCount());
      assertReadsFollowTheGapRule(r, d, file.reads);
      long blocksRead = 0;
      for (int i = 0; i < d.size(); i++) {
        blocksRead += d.isRead(i) ? r.index().handle(i).end() - r.index().handle(i).offset() : 0;
      }
      long bytesRead = file.lengths().stream().mapToLong(n -> n).sum();
      assertEquals(blocksRead, bytesRead, "every gap is wider than the bound: nothing passed over");
    }
  }

  @Test
  void onAnAppendedTableReadsPassOverNoWiderGapAndAnAppendStillReadsBack() throws IOException {
    buildTable();
    appendToTable(everyKth(7));
    Random rnd = new Random(5);
    for (int round = 0; round < 6; round++) {
      List<Integer> keys = clusters(rnd);
      try (TableReader r = TableReader.open(memory, "t.sst", 7, footerOffset, null)) {
        RecordingFile file = new RecordingFile(memory, 0);
        DirtyBlocks d = find(r, file, keys);
        assertTrue(d.dirtyCount() > 0);
        assertReadsFollowTheGapRule(r, d, file.reads);
      }
    }
    appendToTable(clusters(rnd));
    try (TableReader r = TableReader.open(memory, "t.sst", 7, footerOffset, null)) {
      assertScanMatches(model, r);
    }
  }

  /**
   * An append moves blocks p-1, p+1 and p+2 to the file's end, leaving p between them in the
   * index but far before them in the file. When p is dirty its clean right neighbour, moved, is
   * passed over by the read of the moved blocks around it and kept from that read, not fetched
   * again for the widening to look at.
   */
  @Test
  void aNeighbourAnAppendMovedIsKeptFromTheReadThatPassedOverIt() throws IOException {
    buildTable();
    int keyOfP;
    try (TableReader r = TableReader.open(memory, "t.sst", 7, footerOffset, null)) {
      int p = r.index().size() / 2;
      keyOfP = middleKeyOf(r, p);
      appendToTable(List.of(middleKeyOf(r, p - 1), middleKeyOf(r, p + 1), middleKeyOf(r, p + 2)));
    }
    try (TableReader r = TableReader.open(memory, "t.sst", 7, footerOffset, null)) {
      TableIndex index = r.index();
      int q = blockOf(r, keyOfP);
      long kept = index.handle(q).offset();
      assertTrue(index.handle(q - 1).offset() > kept && index.handle(q + 1).offset() > index.handle(q - 1).offset()
          && index.handle(q + 2).offset() > index.handle(q + 1).offset(), "blocks around " + q + " moved, in order");
      assertTrue(index.handle(q + 2).offset() - index.handle(q - 1).end() <= Readahead.MAX_GAP_BYTES);
      RecordingFile file = new RecordingFile(memory, 0);
      DirtyBlocks d = find(r, file, List.of(middleKeyOf(r, q - 1), keyOfP, middleKeyOf(r, q + 2)));
      assertReadsFollowTheGapRule(r, d, file.reads);
      assertTrue(d.isDirty(q - 1) && d.isDirty(q) && d.isDirty(q + 2) && !d.isDirty(q + 1));
      assertTrue(d.isRead(q + 1), "the widening looked at dirty block " + q + "'s right neighbour");
      BlockHandle neighbour = index.handle(q + 1);
      List<long[]> fetching = file.reads.stream()
          .filter(one -> neighbour.offset() >= one[0] && neighbour.end() <= one[0] + one[1]).toList();
      assertEquals(1, fetching.size(), "reads that fetched the moved neighbour");
      assertEquals(index.handle(q - 1).offset(), fetching.get(0)[0], "the read of the moved dirty blocks");
    }
  }

  /** Index position of the block holding {@code key}'s (single) version. */
  private static int blockOf(TableReader r, int key) {
    return r.index().seek(InternalKey.encode(userKey(key), InternalKey.MAX_SEQUENCE, ValueType.FOR_SEEK));
  }

  /** The middle one of the keys block {@code i} holds (the table's keys are 0 to ENTRIES - 1). */
  private static int middleKeyOf(TableReader r, int i) {
    List<Integer> in = new ArrayList<>();
    for (int k = 0; k < ENTRIES; k++) {
      if (blockOf(r, k) == i) {
        in.add(k);
      }
    }
    assertTrue(!in.isEmpty(), "block " + i + " holds a key");
    return in.get(in.size() / 2);
  }

  @Test
  void everyVersionOfAMergedUserKeyIsInTheMergeWhereverItsBytesCameFrom() throws IOException {
    for (int seed = 1; seed <= 20; seed++) {
      Random rnd = new Random(seed);
      InMemoryFile small = new InMemoryFile();
      // Several versions of each user key in 256-byte blocks: user keys straddle block boundaries.
      TableOptions tiny = new TableOptions(256, 4, 10, 0.4);
      long footer = build(small, tiny, TableTestSupport.randomModel(rnd, 600, 150)).footerOffset();
      List<Integer> keys = new ArrayList<>();
      for (int k = rnd.nextInt(9); k < 300; k += 1 + rnd.nextInt(40)) {
        keys.add(k);
      }
      boolean besideLoneBlocks = seed % 2 == 0;
      try (TableReader r = TableReader.open(small, "t.sst", 7, footer, null)) {
        RecordingFile file = new RecordingFile(small, 0);
        List<byte[]> userKeys = new ArrayList<>();
        keys.forEach(k -> userKeys.add(userKey(k)));
        DirtyBlocks d = DirtyBlocks.find(r, file, COMPACTION, userKeys, RangeTombstones.EMPTY,
            (i, block) -> besideLoneBlocks);
        assertReadsFollowTheGapRule(r, d, file.reads);
        List<Set<String>> userKeysOf = userKeysByBlock(r);
        for (int i = 0; i < d.size(); i++) {
          for (int k : keys) {
            if (userKeysOf.get(i).contains(new String(userKey(k)))) {
              assertTrue(d.isDirty(i), "seed " + seed + ": block " + i + " holds incoming key " + k);
            }
          }
          boolean merged = d.isDirty(i) && !d.isBeside(i);
          for (int j : new int[] {i - 1, i + 1}) {
            if (merged && j >= 0 && j < d.size() && !(d.isDirty(j) && !d.isBeside(j))) {
              Set<String> shared = new HashSet<>(userKeysOf.get(i));
              shared.retainAll(userKeysOf.get(j));
              assertTrue(shared.isEmpty(), "seed " + seed + ": merged block " + i + " shares " + shared
                  + " with block " + j + ", left out of the merge");
            }
          }
        }
      }
    }
  }

  /** The user keys each data block holds: each entry of a scan, in the block its index entry covers. */
  private static List<Set<String>> userKeysByBlock(TableReader r) {
    List<Set<String>> out = new ArrayList<>();
    for (int i = 0; i < r.index().size(); i++) {
      out.add(new HashSet<>());
    }
    try (InternalIterator it = r.iterator(false, COMPACTION)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        out.get(r.index().seek(it.key())).add(new String(InternalKey.userKey(it.key())));
      }
    }
    return out;
  }

  /**
   * Each read starts and ends at a block read and passes over at most {@link
   * Readahead#MAX_GAP_BYTES} between two such blocks; every block read came from a read; each
   * dirty block read holds the keys its index entry names.
   */
  private static void assertReadsFollowTheGapRule(TableReader r, DirtyBlocks d, List<long[]> reads) {
    List<BlockHandle> read = new ArrayList<>();
    for (int i = 0; i < d.size(); i++) {
      if (d.isRead(i)) {
        read.add(r.index().handle(i));
      }
      if (d.isDirty(i)) {
        byte[] first = DirtyBlocks.firstKey(d.block(i));
        byte[] last = DirtyBlocks.lastKey(d.block(i));
        assertTrue(i == 0 || CMP.compare(first, r.index().separator(i - 1)) > 0, "block " + i + " begins after");
        assertTrue(CMP.compare(last, r.index().separator(i)) <= 0, "block " + i + " ends at its separator");
      }
    }
    read.sort((a, b) -> Long.compare(a.offset(), b.offset()));
    for (long[] one : reads) {
      long from = one[0];
      long to = one[0] + one[1];
      List<BlockHandle> inside = read.stream().filter(h -> h.offset() >= from && h.end() <= to).toList();
      assertTrue(!inside.isEmpty(), "a read of " + one[1] + " bytes at " + from + " holds no block read");
      assertEquals(from, inside.get(0).offset(), "a read at " + from + " starts at a block read");
      assertEquals(to, inside.get(inside.size() - 1).end(), "a read at " + from + " ends at a block read");
      for (int k = 1; k < inside.size(); k++) {
        long gap = inside.get(k).offset() - inside.get(k - 1).end();
        assertTrue(gap <= Readahead.MAX_GAP_BYTES, "a read at " + from + " passes over " + gap + " bytes");
      }
      assertTrue(one[1] <= DirtyBlocks.MAX_READ_BYTES);
    }
    for (BlockHandle h : read) {
      assertTrue(reads.stream().anyMatch(one -> h.offset() >= one[0] && h.end() <= one[0] + one[1]),
          "block at " + h.offset() + " came from a read");
    }
  }

  private DirtyBlocks find(TableReader r, RecordingFile file, List<Integer> keys) throws IOException {
    List<byte[]> userKeys = new ArrayList<>();
    keys.forEach(k -> userKeys.add(userKey(k)));
    return DirtyBlocks.find(r, file, COMPACTION, userKeys, RangeTombstones.EMPTY, (i, block) -> false);
  }

  /** About 2 MiB of 1 KiB values over a dense key space: about 500 blocks. */
  private void buildTable() throws IOException {
    Random rnd = new Random(11);
    for (int i = 0; i < ENTRIES; i++) {
      byte[] value = new byte[1000 + rnd.nextInt(48)];
      rnd.nextBytes(value);
      model.put(InternalKey.encode(userKey(i), i + 1, ValueType.VALUE), value);
    }
    footerOffset = build(memory, OPTIONS, model).footerOffset();
  }

  /**
   * Appends new versions of {@code keys} (ascending), every version kept (no drop rules), and
   * moves {@link #footerOffset} to the new footer.
   */
  private void appendToTable(List<Integer> keys) throws IOException {
    long sequence = 10L * ENTRIES + model.size();
    List<Map.Entry<byte[], byte[]>> incoming = new ArrayList<>();
    for (int k : keys) {
      byte[] key = InternalKey.encode(userKey(k), ++sequence, ValueType.VALUE);
      byte[] value = ("v" + sequence).repeat(100).getBytes();
      model.put(key, value);
      incoming.add(Map.entry(key, value));
    }
    try (TableReader old = TableReader.open(memory, "t.sst", 7, footerOffset, null)) {
      footerOffset = new TableAppender(old, memory, memory, OPTIONS, 0.02, it -> it, COMPACTION)
          .append(incoming).summary().footerOffset();
    }
  }

  private static List<Integer> everyKth(int k) {
    List<Integer> keys = new ArrayList<>();
    for (int i = 0; i < ENTRIES; i += k) {
      keys.add(i);
    }
    return keys;
  }

  /** Ascending distinct keys in a few clusters: dense runs of dirty blocks with wide gaps between. */
  private static List<Integer> clusters(Random rnd) {
    TreeMap<Integer, Boolean> keys = new TreeMap<>();
    for (int c = 0; c < 8; c++) {
      int at = rnd.nextInt(ENTRIES);
      for (int j = 0, n = 1 + rnd.nextInt(40); j < n && at < ENTRIES; j++, at += 1 + rnd.nextInt(12)) {
        keys.put(at, true);
      }
    }
    return new ArrayList<>(keys.keySet());
  }
}

package dev.cairn.table;

import static dev.cairn.table.TableTestSupport.build;
import static dev.cairn.table.TableTestSupport.randomModel;
import static dev.cairn.table.TableTestSupport.userKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.fs.fake.InMemoryFile;
import dev.cairn.config.Compression;
import dev.cairn.fs.IoTag;
import dev.cairn.iter.InternalIterator;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.LookupResult;
import dev.cairn.key.ValueType;
import dev.cairn.table.block.Block;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link TableSubset}: a table of some of another's data blocks answers every key of the copied
 * block runs as the source does, at every snapshot, a user key straddling a run's end included.
 */
class TableSubsetTest {
  private static final TableOptions OPTIONS = new TableOptions(256, 4, 10, 0.4);

  @Test
  void aSubsetAnswersTheKeysOfItsBlockRunsAsTheSourceAtEverySnapshot() throws IOException {
    Random rnd = new Random(7);
    TreeMap<byte[], byte[]> model = randomModel(rnd, 4000, 300);
    InMemoryFile file = new InMemoryFile();
    TableSummary s = build(file, OPTIONS, model);
    long maxSeq = s.largestSequence();
    try (TableReader source = TableReader.open(file, "source", 1, s.footerOffset(), null)) {
      int n = source.dataBlockCount();
      assertTrue(n > 40, "a table of many blocks: " + n);
      for (int trial = 0; trial < 20; trial++) {
        TreeSet<Integer> chosen = new TreeSet<>();
        int runs = 1 + rnd.nextInt(4);
        for (int r = 0; r < runs; r++) {
          int first = rnd.nextInt(n);
          int len = 1 + rnd.nextInt(4);
          for (int b = first; b < Math.min(n, first + len); b++) {
            chosen.add(b);
          }
        }
        int[] blocks = chosen.stream().mapToInt(Integer::intValue).toArray();
        InMemoryFile out = new InMemoryFile();
        Map<Long, Long> moved = new HashMap<>();
        TableSummary sub = TableSubset.write(source, blocks, out, IoTag.OTHER, Compression.none(), (from, to, contents) -> moved.put(from, to));
        try (TableReader copy = TableReader.open(out, "copy", 2, sub.footerOffset(), null)) {
          copy.verifyChecksums();
          assertTrue(copy.dataBlockCount() >= blocks.length, "every chosen block is copied");
          assertEquals(copy.dataBlockCount(), moved.size(), "told of every block copied");
          for (int b : blocks) {
            Long to = moved.get(source.dataBlockOffset(b));
            assertTrue(to != null, "block " + b + " copied");
            assertArrayEquals(contents(source, source.dataBlockOffset(b)), contents(copy, to), "block " + b + " byte for byte");
          }
          assertEquals(entriesOf(copy), copy.properties().entries(), "exact entry count");
          for (int key = 0; key < 600; key++) {
            byte[] user = userKey(key);
            if (!inRuns(source, blocks, user)) {
              continue;
            }
            for (long snapshot : new long[] {maxSeq, maxSeq / 2, maxSeq / 5, 1}) {
              assertSame(source.get(user, snapshot, false), copy.get(user, snapshot, false),
                  "key " + key + " at " + snapshot + ", blocks " + chosen);
            }
          }
        }
      }
    }
  }

  /**
   * One user key with hundreds of versions spans several blocks: copying only the block where
   * it starts must still answer an old snapshot, whose version lies in a later block.
   */
  @Test
  void aUserKeyStraddlingTheEndOfACopiedRunBringsTheBlocksItContinuesIn() throws IOException {
    TreeMap<byte[], byte[]> model = new TreeMap<>(InternalKeyComparator.INSTANCE);
    for (int k = 0; k < 40; k++) {
      model.put(InternalKey.encode(userKey(k), 10_000 + k, ValueType.VALUE), new byte[20]);
    }
    byte[] hot = userKey(41);
    for (long seq = 1; seq <= 300; seq++) {
      model.put(InternalKey.encode(hot, seq, ValueType.VALUE), ("v" + seq).getBytes());
    }
    for (int k = 42; k < 80; k++) {
      model.put(InternalKey.encode(userKey(k), 20_000 + k, ValueType.VALUE), new byte[20]);
    }
    InMemoryFile file = new InMemoryFile();
    TableSummary s = build(file, OPTIONS, model);
    try (TableReader source = TableReader.open(file, "source", 1, s.footerOffset(), null)) {
      // A block whose separator is the hot key ends in its versions, and the next holds more.
      int first = 0;
      while (!Arrays.equals(source.dataBlockUpperUserKey(first), hot)) {
        first++;
      }
      assertArrayEquals(hot, source.dataBlockUpperUserKey(first + 1), "the versions go on over more blocks");
      InMemoryFile out = new InMemoryFile();
      TableSummary sub = TableSubset.write(source, new int[] {first}, out, IoTag.OTHER, Compression.none(), (from, to, c) -> {});
      try (TableReader copy = TableReader.open(out, "copy", 2, sub.footerOffset(), null)) {
        assertTrue(copy.dataBlockCount() > 2, "the blocks the key continues in came along: " + copy.dataBlockCount());
        for (long seq = 1; seq <= 300; seq++) {
          assertSame(source.get(hot, seq, false), copy.get(hot, seq, false), "version " + seq);
        }
        assertArrayEquals(("v1").getBytes(), copy.get(hot, 1, false).value());
      }
    }
  }

  @Test
  void noBlocksOrUnorderedPositionsAreRefused() throws IOException {
    InMemoryFile file = new InMemoryFile();
    TableSummary s = build(file, OPTIONS, randomModel(new Random(3), 500, 100));
    try (TableReader source = TableReader.open(file, "source", 1, s.footerOffset(), null)) {
      InMemoryFile out = new InMemoryFile();
      assertThrows(IllegalArgumentException.class, () -> TableSubset.write(source, new int[0], out, IoTag.OTHER, Compression.none(), (a, b, c) -> {}));
      assertThrows(IllegalArgumentException.class, () -> TableSubset.write(source, new int[] {2, 1}, out, IoTag.OTHER, Compression.none(), (a, b, c) -> {}));
      assertThrows(IllegalArgumentException.class,
          () -> TableSubset.write(source, new int[] {source.dataBlockCount()}, out, IoTag.OTHER, Compression.none(), (a, b, c) -> {}));
      assertEquals(0, out.size(), "nothing written");
    }
  }

  private static void assertSame(LookupResult expected, LookupResult actual, String what) {
    assertEquals(expected.kind(), actual.kind(), what);
    assertArrayEquals(expected.value(), actual.value(), what);
  }

  /** Whether {@code user} lies in the user-key range of a run of {@code blocks}: (upper(a-1), upper(b-1)]. */
  private static boolean inRuns(TableReader t, int[] blocks, byte[] user) {
    for (int b : blocks) {
      boolean aboveLower = b == 0 || Arrays.compareUnsigned(user, t.dataBlockUpperUserKey(b - 1)) > 0;
      if (aboveLower && Arrays.compareUnsigned(user, t.dataBlockUpperUserKey(b)) <= 0) {
        return true;
      }
    }
    return false;
  }

  private static byte[] contents(TableReader t, long offset) {
    for (int i = 0; i < t.dataBlockCount(); i++) {
      if (t.dataBlockOffset(i) == offset) {
        try (BlockRef ref = t.acquireDataBlock(t.index().handle(i), false, IoTag.OTHER)) {
          Block block = ref.block();
          ByteBuffer c = block.contents();
          byte[] out = new byte[c.remaining()];
          c.get(out);
          return out;
        }
      }
    }
    throw new AssertionError("no block at " + offset);
  }

  private static long entriesOf(TableReader t) {
    long n = 0;
    try (InternalIterator it = t.iterator(false, IoTag.OTHER)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        n++;
      }
    }
    return n;
  }
}

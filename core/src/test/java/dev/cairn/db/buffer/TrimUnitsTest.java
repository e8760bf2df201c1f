package dev.cairn.db.buffer;

import dev.cairn.compaction.buffer.TrimUnits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.key.InternalKey;
import dev.cairn.key.UserKeys;
import dev.cairn.key.ValueType;
import dev.cairn.model.BufferEntry;
import dev.cairn.model.KeyRanges;
import dev.cairn.model.BufferRun;
import dev.cairn.version.FileMetaData;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The trim's units: a buffer file's block runs split into hot parts and removed markers that
 * cover its range with no gap (so no key of the file can slip past to an older table), clipped
 * to the entry's range, merged when neighbours agree.
 */
class TrimUnitsTest {
  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static FileMetaData file(String smallest, String largest) {
    return new FileMetaData(7, 0, 100, 100, InternalKey.encode(b(smallest), 1, ValueType.VALUE),
        InternalKey.encode(b(largest), 1, ValueType.VALUE), 10, 1, 1);
  }

  private static byte[][] keys(String... ks) {
    return Arrays.stream(ks).map(TrimUnitsTest::b).toArray(byte[][]::new);
  }

  private static long[] bytes(int n) {
    long[] out = new long[n];
    Arrays.fill(out, 100);
    return out;
  }

  @Test
  void aFileWhoseRunsAreAllHotStaysWhole() {
    BufferEntry.File<FileMetaData> e = new BufferEntry.File<>(file("a", "h"));
    List<BufferEntry<FileMetaData>> out = TrimUnits.split(e, keys("b", "d", "f", "h"), bytes(4),
        new boolean[] {true, true, true, true}, 200, 0.8);
    assertEquals(1, out.size());
    assertSame(e, out.get(0));
  }

  @Test
  void aFileWhoseRunsAreAllColdBecomesOneMarkerOfItsRange() {
    BufferEntry.File<FileMetaData> e = new BufferEntry.File<>(file("a", "h"));
    List<BufferEntry<FileMetaData>> out = TrimUnits.split(e, keys("b", "d", "f", "h"), bytes(4), new boolean[4], 200, 0.8);
    assertEquals(List.of(new BufferEntry.Removed<>(b("a"), b("h"))), out);
  }

  @Test
  void coldRunsBecomeMarkersBetweenHotPartsCutAtSeparators() {
    BufferEntry.File<FileMetaData> e = new BufferEntry.File<>(file("a", "z"));
    // Runs of two blocks: [b, d] hot, [f, h] cold (one of two cached), [j, z] hot.
    List<BufferEntry<FileMetaData>> out = TrimUnits.split(e, keys("b", "d", "f", "h", "j", "zz"), bytes(6),
        new boolean[] {true, true, true, false, true, true}, 200, 0.8);
    assertEquals(List.of(
        new BufferEntry.File<>(e.meta(), b("a"), b("d")),
        new BufferEntry.Removed<>(TrimUnits.successor(b("d")), b("h")),
        new BufferEntry.File<>(e.meta(), TrimUnits.successor(b("h")), b("z"))), out);
  }

  @Test
  void aColdRunOverCachedDataOfAnOlderTableStays() {
    BufferEntry.File<FileMetaData> e = new BufferEntry.File<>(file("a", "z"));
    boolean[] cached = {true, true, true, false, true, false};
    KeyRanges older = new KeyRanges();
    older.add(b("g"), b("g")); // under the cold run [e..h], not under the cold run [i..z]
    List<BufferEntry<FileMetaData>> out = TrimUnits.split(e, keys("b", "d", "f", "h", "j", "zz"), bytes(6), cached, 200, 0.8,
        older::overlaps);
    assertEquals(List.of(
        new BufferEntry.File<>(e.meta(), b("a"), b("h")),
        new BufferEntry.Removed<>(TrimUnits.successor(b("h")), b("z"))), out,
        "a marker over [e..h] would stop the walks the older table's cached g serves");
  }

  @Test
  void aPartIsSplitWithinItsOwnRangeOnly() {
    FileMetaData f = file("a", "z");
    BufferEntry.File<FileMetaData> part = new BufferEntry.File<>(f, b("c"), b("g"));
    // Runs of one block: ..b | c..d | d..f | f..h | h..
    List<BufferEntry<FileMetaData>> out = TrimUnits.split(part, keys("b", "d", "f", "h", "zz"), bytes(5),
        new boolean[] {false, true, false, true, false}, 100, 0.8);
    assertEquals(List.of(
        new BufferEntry.File<>(f, b("c"), b("d")),
        new BufferEntry.Removed<>(TrimUnits.successor(b("d")), b("f")),
        new BufferEntry.File<>(f, TrimUnits.successor(b("f")), b("g"))), out);
  }

  /**
   * For random files (sorted keys, some user keys with versions straddling block boundaries,
   * separators anywhere between neighbouring blocks) and random cache states: the pieces form a
   * valid buffer run, span exactly the entry's range, every key of the file lies in a piece,
   * and a key lies in a hot part exactly when the run holding it (its first block's, for a key
   * straddling two blocks) is hot.
   */
  @Test
  void piecesCoverEveryKeyOfTheFileWithNoGapForRandomLayouts() {
    SplittableRandom r = new SplittableRandom(11);
    for (int round = 0; round < 500; round++) {
      TreeSet<String> keySet = new TreeSet<>();
      int count = 2 + r.nextInt(60);
      while (keySet.size() < count) {
        keySet.add(Integer.toString(1000 + r.nextInt(9000)));
      }
      List<String> keys = new ArrayList<>(keySet);
      // Blocks of 1..4 entries; a user key may repeat across the boundary (straddling versions).
      List<List<String>> blocks = new ArrayList<>();
      List<String> current = new ArrayList<>();
      for (String k : keys) {
        current.add(k);
        if (current.size() >= 1 + r.nextInt(4)) {
          blocks.add(current);
          current = new ArrayList<>();
          if (r.nextInt(4) == 0) {
            current.add(k); // an older version of k opens the next block
          }
        }
      }
      if (!current.isEmpty()) {
        blocks.add(current);
      }
      int n = blocks.size();
      byte[][] upper = new byte[n][];
      for (int i = 0; i < n; i++) {
        String last = blocks.get(i).get(blocks.get(i).size() - 1);
        boolean straddles = i + 1 < n && blocks.get(i + 1).get(0).equals(last);
        // A shortened separator may sit anywhere in [last, next first); a straddled key is its own.
        upper[i] = b(straddles || i + 1 == n || r.nextBoolean() ? last : last + "~");
        if (!straddles && i + 1 < n && UserKeys.compare(upper[i], b(blocks.get(i + 1).get(0))) >= 0) {
          upper[i] = b(last);
        }
      }
      boolean[] cached = new boolean[n];
      for (int i = 0; i < n; i++) {
        cached[i] = r.nextInt(3) != 0;
      }
      FileMetaData meta = file(keys.get(0), keys.get(keys.size() - 1));
      BufferEntry.File<FileMetaData> whole = new BufferEntry.File<>(meta);
      long unit = 100L * (1 + r.nextInt(3));
      List<BufferEntry<FileMetaData>> pieces = TrimUnits.split(whole, upper, bytes(n), cached, unit, 0.8);

      new BufferRun<>(1, pieces); // ordered, never overlapping: throws otherwise
      assertArrayEquals(whole.smallestUserKey(), pieces.get(0).smallestUserKey(), "round " + round);
      assertArrayEquals(whole.largestUserKey(), pieces.get(pieces.size() - 1).largestUserKey(), "round " + round);
      for (int i = 1; i < pieces.size(); i++) {
        assertArrayEquals(TrimUnits.successor(pieces.get(i - 1).largestUserKey()), pieces.get(i).smallestUserKey(),
            "no gap between pieces, round " + round + ": " + pieces);
      }
      // The runs as the trim forms them: blocks until a run has `unit` bytes (100 per block).
      int[] runOf = new int[n];
      List<Boolean> runHot = new ArrayList<>();
      for (int start = 0; start < n; ) {
        int end = start;
        int hot = 0;
        while (end < n && (end == start || 100L * (end - start) < unit)) {
          hot += cached[end] ? 1 : 0;
          runOf[end++] = runHot.size();
        }
        runHot.add(hot >= 0.8 * (end - start));
        start = end;
      }
      BufferRun<FileMetaData> table = new BufferRun<>(1, pieces);
      for (String k : keys) {
        BufferEntry<FileMetaData> holder = table.covering(b(k));
        assertTrue(holder != null, "key " + k + " fell between pieces, round " + round + ": " + pieces);
        int firstBlock = 0;
        while (!blocks.get(firstBlock).contains(k)) {
          firstBlock++;
        }
        boolean hot = runHot.get(runOf[firstBlock]);
        assertEquals(hot, holder instanceof BufferEntry.File, "key " + k + " in block " + firstBlock
            + " (run hot: " + hot + "), round " + round + ": " + pieces);
        if (holder instanceof BufferEntry.File<FileMetaData> part) {
          assertSame(meta, part.meta());
        }
      }
      if (pieces.size() == 1 && pieces.get(0) instanceof BufferEntry.File) {
        assertSame(whole, pieces.get(0));
      }
    }
  }
}

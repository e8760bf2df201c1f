package dev.cairn.table;

import static dev.cairn.table.TableTestSupport.assertScanMatches;
import static dev.cairn.table.TableTestSupport.build;
import static dev.cairn.table.TableTestSupport.expected;
import static dev.cairn.table.TableTestSupport.randomModel;
import static dev.cairn.table.TableTestSupport.userKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.CorruptionException;
import dev.cairn.fs.fake.InMemoryFile;
import dev.cairn.fs.IoTag;
import dev.cairn.iter.CompactionOutputIterator;
import dev.cairn.iter.InternalIterator;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.LookupResult;
import dev.cairn.key.ValueType;
import dev.cairn.table.block.BlockHandle;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link TableAppender}: block compaction of one table, table-driven over incoming key sets. */
class TableAppenderTest {
  private static final InternalKeyComparator CMP = InternalKeyComparator.INSTANCE;
  private static final TableOptions OPTIONS = new TableOptions(256, 4, 10, 0.4);
  private static final UnaryOperator<InternalIterator> KEEP_ALL = it -> it;
  private static final long NEW_SEQ = 1_000_000;

  /** Incoming keys: user key ids (even ids exist in the base table, 0..298) and a type. */
  record Incoming(String name, int[] userKeyIds, boolean tombstones) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> cases() {
    int[] every = new int[150];
    for (int i = 0; i < every.length; i++) {
      every[i] = i * 2;
    }
    return Stream.of(
        Arguments.of(new Incoming("one key in the middle", new int[] {150}, false)),
        Arguments.of(new Incoming("absent key between blocks", new int[] {151}, false)),
        Arguments.of(new Incoming("keys past the end only", new int[] {900_000, 900_001, 900_002}, false)),
        Arguments.of(new Incoming("keys before the start", new int[] {-1}, false)),
        Arguments.of(new Incoming("sparse keys and tail", new int[] {3, 40, 41, 200, 297, 900_000}, false)),
        Arguments.of(new Incoming("tombstones", new int[] {10, 12, 100, 250}, true)),
        Arguments.of(new Incoming("every block dirty", every, false)));
  }

  private static byte[] user(int id) {
    return id < 0 ? new byte[] {'a'} : userKey(id);
  }

  private static List<Map.Entry<byte[], byte[]>> incoming(Incoming in) {
    TreeMap<byte[], byte[]> m = new TreeMap<>(CMP);
    long seq = NEW_SEQ;
    for (int id : in.userKeyIds()) {
      ValueType type = in.tombstones() ? ValueType.DELETION : ValueType.VALUE;
      m.put(InternalKey.encode(user(id), seq++, type), in.tombstones() ? new byte[0] : ("new" + id).getBytes());
    }
    return new ArrayList<>(m.entrySet());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void appendMergesDirtyBlocksAndKeepsCleanOnes(Incoming in) throws IOException {
    TreeMap<byte[], byte[]> oldModel = randomModel(new Random(11), 600, 150);
    InMemoryFile file = new InMemoryFile();
    TableSummary first = build(file, OPTIONS, oldModel);
    byte[] oldBytes = file.bytes();
    List<Map.Entry<byte[], byte[]>> incoming = incoming(in);
    TreeMap<byte[], byte[]> newModel = new TreeMap<>(CMP);
    newModel.putAll(oldModel);
    incoming.forEach(e -> newModel.put(e.getKey(), e.getValue()));

    TableAppender.Result result;
    Set<Long> oldOffsets = new HashSet<>();
    try (TableReader old = TableReader.open(file, "t.sst", 5, first.footerOffset(), null)) {
      for (int i = 0; i < old.index().size(); i++) {
        oldOffsets.add(old.index().handle(i).offset());
      }
      result = new TableAppender(old, file, file, OPTIONS, 0.02, KEEP_ALL, IoTag.USER_READ).append(incoming);
    }
    TableSummary s = result.summary();
    assertArrayEquals(oldBytes, java.util.Arrays.copyOf(file.bytes(), oldBytes.length), "old bytes moved");
    assertEquals(file.size(), s.fileSize());
    try (TableReader old = TableReader.open(file, "t.sst", 5, first.footerOffset(), null);
        TableReader current = TableReader.open(file, "t.sst", 5, s.footerOffset(), null)) {
      assertMatches(oldModel, old);
      assertMatches(newModel, current);
      current.verifyChecksums();
      assertEquals(newModel.size(), current.properties().entries());
      assertEquals(newModel.size(), s.entries());
      assertArrayEquals(newModel.firstKey(), s.smallest());
      assertArrayEquals(newModel.lastKey(), s.largest());
      assertEquals(1, current.properties().extent());
      assertEquals(first.footerOffset(), current.footer().previousFooterOffset());
      // Clean blocks kept their offsets: old blocks still referenced = old blocks - dirty ones.
      long reused = 0;
      for (int i = 0; i < current.index().size(); i++) {
        BlockHandle h = current.index().handle(i);
        if (h.offset() < first.fileSize()) {
          assertTrue(oldOffsets.contains(h.offset()), "reused handle " + h + " is an old block");
          reused++;
        }
      }
      assertEquals(old.index().size() - result.dirtyBlocks(), reused);
      assertTrue(result.validBytes() <= s.fileSize());
      long referenced = current.properties().dataBytes() + current.properties().indexBytes()
          + current.properties().filterBytes();
      assertTrue(result.validBytes() > referenced, result + " vs " + referenced);
    }
  }

  @Test
  void dropRulesNeverResurrectAVersionInACleanNeighbour() throws IOException {
    long seed = System.nanoTime();
    Random rnd = new Random(seed);
    for (int round = 0; round < 20; round++) {
      TreeMap<byte[], byte[]> oldModel = randomModel(rnd, 800, 40); // ~20 versions per key
      InMemoryFile file = new InMemoryFile();
      TableSummary first = build(file, OPTIONS, oldModel);
      TreeMap<byte[], byte[]> in = new TreeMap<>(CMP);
      for (int k = 0; k < 4; k++) {
        int id = rnd.nextInt(40) * 2;
        boolean del = rnd.nextBoolean();
        in.put(InternalKey.encode(userKey(id), NEW_SEQ + k, del ? ValueType.DELETION : ValueType.VALUE),
            del ? new byte[0] : new byte[] {(byte) k});
      }
      TreeMap<byte[], byte[]> union = new TreeMap<>(CMP);
      union.putAll(oldModel);
      union.putAll(in);
      // Bottommost, no snapshot: tombstones and shadowed versions of merged keys are dropped.
      UnaryOperator<InternalIterator> drop =
          it -> new CompactionOutputIterator(it, new long[0], NEW_SEQ + 10, true);
      TableAppender.Result r;
      try (TableReader old = TableReader.open(file, "t.sst", 5, first.footerOffset(), null)) {
        r = new TableAppender(old, file, file, OPTIONS, 0.02, drop, IoTag.USER_READ)
            .append(new ArrayList<>(in.entrySet()));
      }
      try (TableReader t = TableReader.open(file, "t.sst", 5, r.summary().footerOffset(), null)) {
        // A scan sees the newest version of every user key, as a database iterator would.
        TreeMap<byte[], byte[]> newest = new TreeMap<>(java.util.Arrays::compareUnsigned);
        try (InternalIterator it = t.iterator(false, IoTag.USER_READ)) {
          for (it.seekToFirst(); it.isValid(); it.next()) {
            byte[] u = InternalKey.userKey(it.key());
            if (!newest.containsKey(u)) {
              newest.put(u, InternalKey.type(it.key()) == ValueType.VALUE ? it.value() : null);
            }
          }
        }
        for (int id = 0; id < 80; id++) {
          LookupResult want = expected(union, userKey(id), InternalKey.MAX_SEQUENCE);
          byte[] scanned = newest.get(userKey(id));
          if (want.kind() == LookupResult.Kind.FOUND) {
            assertArrayEquals(want.value(), scanned, "seed " + seed + " scan of key " + id);
          } else {
            assertNull(scanned, "seed " + seed + " scan resurrected key " + id);
          }
        }
        for (int id = 0; id < 80; id++) {
          LookupResult want = expected(union, userKey(id), InternalKey.MAX_SEQUENCE);
          LookupResult got = t.get(userKey(id), InternalKey.MAX_SEQUENCE, false);
          boolean wantLive = want.kind() == LookupResult.Kind.FOUND;
          assertEquals(wantLive, got.kind() == LookupResult.Kind.FOUND, "seed " + seed + " key " + id);
          if (wantLive) {
            assertArrayEquals(want.value(), got.value(), "seed " + seed + " key " + id);
          }
        }
      }
    }
  }

  @Test
  void keysInTheGapBesideABlockAreWrittenWithoutRewritingIt() throws IOException {
    // Long user keys that differ before their last byte, so separators get shortened to user
    // keys of their own, strictly between two blocks' keys (docs/format.md section 4).
    TreeMap<byte[], byte[]> oldModel = new TreeMap<>(CMP);
    Random rnd = new Random(5);
    for (int i = 0; i < 300; i++) {
      byte[] user = String.format("key%06d-suffix", rnd.nextInt(150) * 2).getBytes();
      oldModel.put(InternalKey.encode(user, i + 1, ValueType.VALUE), new byte[rnd.nextInt(30)]);
    }
    InMemoryFile file = new InMemoryFile();
    TableSummary first = build(file, OPTIONS, oldModel);
    try (TableReader old = TableReader.open(file, "t.sst", 5, first.footerOffset(), null)) {
      // A block boundary whose separator was shortened to a user key of its own, strictly
      // between the blocks' user keys: a gap on both sides of it.
      int boundary = -1;
      byte[] lastUserBefore = null;
      for (int i = 1; i < old.index().size() && boundary < 0; i++) {
        byte[] sepUser = InternalKey.userKey(old.index().separator(i - 1));
        byte[] lastUser;
        byte[] firstUser;
        try (BlockRef a = old.acquireDataBlock(old.index().handle(i - 1), false, IoTag.USER_READ);
            BlockRef b = old.acquireDataBlock(old.index().handle(i), false, IoTag.USER_READ)) {
          lastUser = InternalKey.userKey(DirtyBlocks.lastKey(a.block()));
          firstUser = InternalKey.userKey(DirtyBlocks.firstKey(b.block()));
        }
        if (java.util.Arrays.compareUnsigned(lastUser, sepUser) < 0
            && java.util.Arrays.compareUnsigned(sepUser, firstUser) < 0) {
          boundary = i;
          lastUserBefore = lastUser;
        }
      }
      assertTrue(boundary > 0, "no gap between blocks");
      for (boolean after : new boolean[] {false, true}) {
        // After: right after block b-1's last user key (inside b-1's range). Before: right after
        // the separator's own user key (inside block b's range, before its first key).
        byte[] user = after
            ? java.util.Arrays.copyOf(lastUserBefore, lastUserBefore.length + 1)
            : java.util.Arrays.copyOf(InternalKey.userKey(old.index().separator(boundary - 1)),
                InternalKey.userKey(old.index().separator(boundary - 1)).length + 1);
        int expectedBlock = after ? boundary - 1 : boundary;
        byte[] ikey = InternalKey.encode(user, NEW_SEQ, ValueType.VALUE);
        int covering = old.index().seek(ikey);
        assertEquals(expectedBlock, covering, "the new key falls into the block's range");
        InMemoryFile copy = new InMemoryFile(file.bytes());
        TableAppender.Result r = new TableAppender(old, copy, copy, OPTIONS, 0.02, KEEP_ALL, IoTag.USER_READ)
            .append(List.of(Map.entry(ikey, new byte[] {7})));
        assertEquals(0, r.dirtyBlocks(), "after=" + after);
        assertEquals(1, r.newBlocks());
        TreeMap<byte[], byte[]> newModel = new TreeMap<>(CMP);
        newModel.putAll(oldModel);
        newModel.put(ikey, new byte[] {7});
        try (TableReader t = TableReader.open(copy, "t.sst", 5, r.summary().footerOffset(), null)) {
          assertScanMatches(newModel, t);
          assertEquals(LookupResult.Kind.FOUND, t.get(user, InternalKey.MAX_SEQUENCE, false).kind());
          t.verifyChecksums();
          assertEquals(old.index().size() + 1, t.index().size());
          assertArrayEquals(newModel.lastKey(), r.summary().largest());
        }
      }
    }
  }

  @Test
  void filtersAreOredWithinTheTargetAndRebuiltBeyondIt() throws IOException {
    TreeMap<byte[], byte[]> oldModel = randomModel(new Random(9), 600, 150);
    List<Map.Entry<byte[], byte[]>> in = incoming(new Incoming("x", new int[] {1, 51, 101, 201, 900_000}, false));
    TreeMap<byte[], byte[]> newModel = new TreeMap<>(CMP);
    newModel.putAll(oldModel);
    in.forEach(e -> newModel.put(e.getKey(), e.getValue()));
    // max FP rate, bits per key of the base table -> rebuilt?
    Object[][] cases = {{0.02, 10, false}, {1e-9, 10, true}, {0.02, 0, true}};
    for (Object[] c : cases) {
      InMemoryFile file = new InMemoryFile();
      TableSummary first = build(file, new TableOptions(256, 4, (int) c[1], 0.4), oldModel);
      TableAppender.Result r;
      try (TableReader old = TableReader.open(file, "t.sst", 5, first.footerOffset(), null)) {
        r = new TableAppender(old, file, file, OPTIONS, (double) c[0], KEEP_ALL, IoTag.USER_READ).append(in);
      }
      assertEquals(c[2], r.filterRebuilt(), java.util.Arrays.toString(c));
      try (TableReader t = TableReader.open(file, "t.sst", 5, r.summary().footerOffset(), null)) {
        assertTrue(t.hasFilter());
        assertMatches(newModel, t); // no false negative, old keys or new
      }
    }
  }

  @Test
  void everyEntryDroppedLeavesNoTable() throws IOException {
    TreeMap<byte[], byte[]> oldModel = new TreeMap<>(CMP);
    oldModel.put(InternalKey.encode(userKey(1), 5, ValueType.VALUE), new byte[] {1});
    InMemoryFile file = new InMemoryFile();
    TableSummary first = build(file, OPTIONS, oldModel);
    List<Map.Entry<byte[], byte[]>> in =
        List.of(Map.entry(InternalKey.encode(userKey(1), 9, ValueType.DELETION), new byte[0]));
    try (TableReader old = TableReader.open(file, "t.sst", 5, first.footerOffset(), null)) {
      TableAppender.Result r = new TableAppender(old, file, file, OPTIONS, 0.02,
          it -> new CompactionOutputIterator(it, new long[0], 10, true), IoTag.USER_READ).append(in);
      assertNull(r.summary());
    }
  }

  @Test
  void corruptedAppendedBlockIsReportedWithFileAndOffset() throws IOException {
    TreeMap<byte[], byte[]> oldModel = randomModel(new Random(3), 300, 100);
    InMemoryFile file = new InMemoryFile();
    TableSummary first = build(file, OPTIONS, oldModel);
    TableAppender.Result r;
    try (TableReader old = TableReader.open(file, "t.sst", 5, first.footerOffset(), null)) {
      r = new TableAppender(old, file, file, OPTIONS, 0.02, KEEP_ALL, IoTag.USER_READ)
          .append(incoming(new Incoming("x", new int[] {20, 21}, false)));
    }
    byte[] bytes = file.bytes();
    long damaged = first.fileSize() + 3; // inside the first appended block
    bytes[(int) damaged] ^= 0x40;
    InMemoryFile broken = new InMemoryFile(bytes);
    try (TableReader t = TableReader.open(broken, "t.sst", 5, r.summary().footerOffset(), null)) {
      CorruptionException e = assertThrows(CorruptionException.class, t::verifyChecksums);
      assertTrue(e.getMessage().contains("t.sst"), e.getMessage());
      assertTrue(e.getMessage().contains(Long.toString(first.fileSize())), e.getMessage());
    }
  }

  private static void assertMatches(TreeMap<byte[], byte[]> model, TableReader r) {
    assertScanMatches(model, r);
    for (int k = -1; k < 300; k++) {
      LookupResult want1 = expected(model, user(k), InternalKey.MAX_SEQUENCE);
      LookupResult got = r.get(user(k), InternalKey.MAX_SEQUENCE, false);
      assertEquals(want1.kind(), got.kind(), "key " + k);
    }
  }
}

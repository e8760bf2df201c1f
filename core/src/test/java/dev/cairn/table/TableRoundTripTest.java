package dev.cairn.table;

import dev.cairn.testkit.Seeds;
import dev.cairn.fs.fake.InMemoryFile;
import static dev.cairn.table.TableTestSupport.build;
import static dev.cairn.table.TableTestSupport.expected;
import static dev.cairn.table.TableTestSupport.randomModel;
import static dev.cairn.table.TableTestSupport.userKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.CorruptionException;
import dev.cairn.fs.IoTag;
import dev.cairn.iter.InternalIterator;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.LookupResult;
import dev.cairn.key.ValueType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TableRoundTripTest {
  private static final long SEED = Seeds.seed();

  @ParameterizedTest
  @ValueSource(ints = {0, 10})
  void getIterateSeekAgainstModel(int bloomBits) throws IOException {
    String ctx = "seed " + SEED + " (replay with -Dcairn.seed=" + SEED + ")";
    Random rnd = new Random(SEED);
    TreeMap<byte[], byte[]> model = randomModel(rnd, 3000, 700);
    InMemoryFile file = new InMemoryFile();
    TableSummary summary = build(file, new TableOptions(512, 4, bloomBits), model);
    assertEquals(model.size(), summary.entries(), ctx);
    assertEquals(file.size(), summary.fileSize(), ctx);
    assertArrayEquals(model.firstKey(), summary.smallest(), ctx);
    assertArrayEquals(model.lastKey(), summary.largest(), ctx);

    HeapBlockCache cache = new HeapBlockCache(1 << 20);
    try (TableReader r = TableReader.open(file, "t.sst", 7, summary.footerOffset(), cache)) {
      assertEquals(bloomBits > 0, r.hasFilter());
      long maxSeq = summary.largestSequence();
      for (int k = 0; k < 1400; k++) {
        byte[] user = userKey(k);
        for (long snap : new long[] {0, 1, maxSeq / 3, maxSeq / 2, maxSeq, InternalKey.MAX_SEQUENCE}) {
          LookupResult want = expected(model, user, snap);
          LookupResult got = r.get(user, snap, rnd.nextBoolean());
          assertEquals(want.kind(), got.kind(), ctx + " key " + k + " snap " + snap);
          if (want.kind() == LookupResult.Kind.FOUND) {
            assertArrayEquals(want.value(), got.value(), ctx);
          }
        }
      }
      // Full iteration.
      List<byte[]> keys = new ArrayList<>(model.keySet());
      try (InternalIterator it = r.iterator(false, IoTag.compaction(1))) {
        int i = 0;
        for (it.seekToFirst(); it.isValid(); it.next(), i++) {
          assertArrayEquals(keys.get(i), it.key(), ctx);
          assertArrayEquals(model.get(keys.get(i)), it.value(), ctx);
        }
        assertEquals(keys.size(), i, ctx);
        // Seeks to random targets, present or not.
        for (int s = 0; s < 500; s++) {
          byte[] target = InternalKey.encode(userKey(rnd.nextInt(1500)), rnd.nextInt((int) maxSeq + 2),
              ValueType.VALUE);
          Map.Entry<byte[], byte[]> want = model.ceilingEntry(target);
          it.seek(target);
          if (want == null) {
            assertFalse(it.isValid(), ctx);
          } else {
            assertTrue(it.isValid(), ctx);
            assertArrayEquals(want.getKey(), it.key(), ctx);
          }
        }
        // Both ways across blocks: prev() at a block's first entry opens the block before.
        dev.cairn.iter.IteratorWalk.internal(it, model, InternalKeyComparator.INSTANCE,
            () -> InternalKey.encode(userKey(rnd.nextInt(1500)), rnd.nextInt((int) maxSeq + 2),
                rnd.nextBoolean() ? ValueType.VALUE : ValueType.DELETION), rnd, 3000, ctx);
      }
      r.verifyChecksums();
      if (bloomBits > 0) {
        FilterCounters c = r.filterCounters();
        assertTrue(c.useful() > 0, "absent odd keys should be filtered: " + c);
        assertEquals(c.probes(), c.useful() + c.positives());
      }
      assertEquals(summary.entries(), r.properties().entries());
      assertEquals(0, r.properties().extent());
      long last = -1;
      for (byte[] k : keys) {
        long off = r.approximateOffsetOf(k);
        assertTrue(off >= last, "approximate offsets grow with the key");
        last = off;
      }
      assertEquals(r.properties().dataBytes(),
          r.approximateOffsetOf(InternalKey.encode(userKey(999_999), 0, ValueType.VALUE)));
    }
    assertEquals(0, cache.pinned(), "blocks left pinned");
  }

  @Test
  void emptyTable() throws IOException {
    InMemoryFile file = new InMemoryFile();
    TableSummary s = build(file, TableOptions.DEFAULT, new TreeMap<>());
    try (TableReader r = TableReader.open(file, "e.sst", 1, s.footerOffset(), null)) {
      assertEquals(LookupResult.Kind.NOT_PRESENT, r.get(userKey(1), 10, true).kind());
      InternalIterator it = r.iterator(true, IoTag.USER_READ);
      it.seekToFirst();
      assertFalse(it.isValid());
      it.close();
      r.verifyChecksums();
    }
  }

  @Test
  void wrongFooterOffsetIsCorruptionNamingIt() throws IOException {
    InMemoryFile file = new InMemoryFile();
    TableSummary s = build(file, TableOptions.DEFAULT, randomModel(new Random(1), 50, 20));
    CorruptionException e = assertThrows(CorruptionException.class,
        () -> TableReader.open(file, "x.sst", 1, s.footerOffset() - 1, null));
    assertEquals(s.footerOffset() - 1, e.offset());
    assertEquals("x.sst", e.file());
    assertThrows(CorruptionException.class,
        () -> TableReader.open(file, "x.sst", 1, s.footerOffset() + 1, null));
  }

  @Test
  void newerFormatVersionIsAClearError() throws IOException {
    InMemoryFile file = new InMemoryFile();
    TableSummary s = build(file, TableOptions.DEFAULT, randomModel(new Random(2), 50, 20));
    byte[] bytes = file.bytes();
    bytes[(int) s.footerOffset() + 56] = (byte) (Footer.FORMAT_VERSION + 1);
    UnsupportedTableVersionException e = assertThrows(UnsupportedTableVersionException.class,
        () -> TableReader.open(new InMemoryFile(bytes), "v.sst", 1, s.footerOffset(), null));
    assertEquals(Footer.FORMAT_VERSION + 1, e.version());
    assertTrue(e.getMessage().contains("newer"), e.getMessage());
  }
}

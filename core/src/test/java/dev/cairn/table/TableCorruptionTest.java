package dev.cairn.table;

import dev.cairn.fs.fake.InMemoryFile;
import static dev.cairn.table.TableTestSupport.build;
import static dev.cairn.table.TableTestSupport.expected;
import static dev.cairn.table.TableTestSupport.randomModel;
import static dev.cairn.table.TableTestSupport.userKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.CorruptionException;
import dev.cairn.fs.IoTag;
import dev.cairn.iter.InternalIterator;
import dev.cairn.key.LookupResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Flips every byte of a small table, one at a time, and checks that each damaged copy either
 * fails with a {@link CorruptionException} or still returns exactly the right data — never
 * wrong data (leveldb's corruption_test, exhaustively).
 */
class TableCorruptionTest {
  private static final int[] MASKS = {0x01, 0x80, 0xff, 0x10};

  @Test
  void everySingleByteFlipIsDetectedOrHarmless() throws IOException {
    TreeMap<byte[], byte[]> model = randomModel(new Random(42), 60, 25);
    InMemoryFile original = new InMemoryFile();
    TableSummary s = build(original, new TableOptions(200, 3, 10), model);
    byte[] bytes = original.bytes();
    int detected = 0;
    int harmless = 0;
    for (int pos = 0; pos < bytes.length; pos++) {
      // One flip per byte, the bit pattern varying with the position, keeps the test fast.
      for (int mask : new int[] {MASKS[pos % MASKS.length]}) {
        byte[] damaged = bytes.clone();
        damaged[pos] ^= (byte) mask;
        String ctx = "flip 0x" + Integer.toHexString(mask) + " at " + pos;
        if (readsCorrectlyOrDetects(damaged, s, model, ctx)) {
          harmless++;
        } else {
          detected++;
        }
      }
    }
    assertTrue(detected > bytes.length * 9 / 10, "most flips must be detected: " + detected);
    assertEquals(bytes.length, detected + harmless);
  }

  /** Returns true if every read returned correct data, false if corruption was reported. */
  private static boolean readsCorrectlyOrDetects(
      byte[] damaged, TableSummary s, TreeMap<byte[], byte[]> model, String ctx) throws IOException {
    boolean sawCorruption = false;
    TableReader r;
    try {
      r = TableReader.open(new InMemoryFile(damaged), "c.sst", 1, s.footerOffset(), null);
    } catch (CorruptionException e) {
      assertEquals("c.sst", e.file(), ctx);
      return false;
    }
    try (r) {
      for (int k = 0; k < 52; k++) {
        for (long snap : new long[] {s.largestSequence() / 2, s.largestSequence()}) {
          try {
            LookupResult got = r.get(userKey(k), snap, false);
            LookupResult want = expected(model, userKey(k), snap);
            assertEquals(want.kind(), got.kind(), ctx + " key " + k);
            if (want.value() != null) {
              assertArrayEquals(want.value(), got.value(), ctx);
            }
          } catch (CorruptionException e) {
            sawCorruption = true;
          }
        }
      }
      List<Map.Entry<byte[], byte[]>> want = new ArrayList<>(model.entrySet());
      try (InternalIterator it = r.iterator(false, IoTag.USER_READ)) {
        int i = 0;
        for (it.seekToFirst(); it.isValid(); it.next(), i++) {
          assertArrayEquals(want.get(i).getKey(), it.key(), ctx);
          assertArrayEquals(want.get(i).getValue(), it.value(), ctx);
        }
        assertEquals(want.size(), i, ctx);
      } catch (CorruptionException e) {
        sawCorruption = true;
      }
      try {
        r.verifyChecksums();
      } catch (CorruptionException e) {
        sawCorruption = true;
      }
    }
    return !sawCorruption;
  }
}

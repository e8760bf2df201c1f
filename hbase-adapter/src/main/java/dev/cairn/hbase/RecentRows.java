package dev.cairn.hbase;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A sample of the rows recently read through one generation's leaves: the rows whose output
 * blocks a warm hand-over loads before the generation retires ({@link OutputWarmer}). Each read
 * overwrites a random slot, so the sample favours recent and frequent rows, and recording costs
 * a store, no lock and no shared counter. The slots are written without synchronization: a
 * reader may see a slot's older row, which only makes the sample a little older.
 */
final class RecentRows {
  /** Slots per generation: enough to cover a few thousand hot blocks, at most a few hundred KB of rows. */
  static final int SLOTS = 4096;

  private volatile byte[][] slots;

  /** A read of {@code row} (kept, not copied: HBase does not change a read's row). */
  void record(byte[] row) {
    byte[][] s = slots;
    if (s == null) {
      s = new byte[SLOTS][]; // two first readers may each make one; a few samples are lost
      slots = s;
    }
    s[ThreadLocalRandom.current().nextInt(SLOTS)] = row;
  }

  /** The distinct rows sampled, the most sampled first (ties in row order). */
  List<byte[]> byFrequency() {
    byte[][] s = slots;
    if (s == null) {
      return List.of();
    }
    TreeMap<byte[], Integer> counts = new TreeMap<>(Arrays::compareUnsigned);
    for (byte[] row : s) {
      if (row != null) {
        counts.merge(row, 1, Integer::sum);
      }
    }
    List<byte[]> rows = new ArrayList<>(counts.keySet());
    rows.sort(Comparator.comparing((byte[] r) -> counts.get(r)).reversed());
    return rows;
  }
}

package dev.cairn.db;

import dev.cairn.key.LookupResult;
import dev.cairn.table.TableCache;
import dev.cairn.table.TableHandle;
import dev.cairn.version.BufferEntry;
import dev.cairn.version.BufferTable;
import dev.cairn.version.FileMetaData;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Point reads of one level through its compaction buffer (LSbM Algorithm 3). The level's own
 * file is consulted first: when its key range or filter rules the key out, the level's answer is
 * "not here", and by the buffer invariant so is the buffer's, so both are skipped. Otherwise the
 * buffer's tables are walked newest first: the first file that holds the key (at the snapshot)
 * answers, a removed marker covering the key ends the walk, and the level's file answers when
 * the buffer did not. A hit reads (and caches) the buffer file's blocks, which keeps that file
 * warm for the trim; a miss costs one filter probe per covering buffer file.
 */
final class BufferLookup {
  private BufferLookup() {}

  /** @param served counts the reads a buffer file answered */
  static LookupResult get(TableCache tables, FileMetaData levelFile, List<BufferTable> buffer, byte[] key,
      long sequence, boolean fillCache, LongAdder served) {
    try (TableHandle level = TableIterators.acquire(tables, levelFile)) {
      if (!level.reader().mayContain(key)) {
        return LookupResult.NOT_PRESENT;
      }
      for (BufferTable t : buffer) {
        BufferEntry e = t.covering(key);
        if (e instanceof BufferEntry.Removed) {
          break; // the newest data of this range may have left the buffer
        }
        if (e instanceof BufferEntry.File f) {
          LookupResult r = VersionLookup.getFromTable(tables, f.meta(), key, sequence, fillCache);
          if (r.isDecided()) {
            served.increment();
            return r;
          }
        }
      }
      return level.reader().get(key, sequence, fillCache);
    }
  }

  /**
   * Bloom bits per key for tables of a database with the buffer (dLSM, section IV-C): a lookup
   * probes up to about {@code r} overlapping buffer tables per level, so each filter needs a false
   * positive rate {@code f / r} for the level to keep rate {@code f}; with {@code b} bits
   * ({@code f = e^{-b ln²2}}) that is {@code log2(r/f)/ln 2 = b + log2(r)/ln 2} bits, rounded up.
   * Zero (filters off) stays zero.
   */
  static int bloomBitsPerKey(int bitsPerKey, int levelSizeRatio) {
    if (bitsPerKey == 0) {
      return 0;
    }
    double extra = (Math.log(levelSizeRatio) / Math.log(2)) / Math.log(2);
    return Math.min(64, (int) Math.ceil(bitsPerKey + extra));
  }
}

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
 * warm for the trim; a miss costs one filter probe per covering buffer file. A buffer file that
 * carries its former level's buffer is read the same way, recursively.
 */
final class BufferLookup {
  private BufferLookup() {}

  /** @param served counts the reads a buffer file answered */
  static LookupResult get(TableCache tables, FileMetaData levelFile, List<BufferTable> buffer, byte[] key,
      long sequence, boolean fillCache, LongAdder served) {
    return get(tables, levelFile, buffer, key, sequence, fillCache, served, false);
  }

  /**
   * The answer of {@code file} read through {@code buffer}: the file's filter, the buffer's walk,
   * then the file. A level file with its level's buffer, or a buffer file with the buffer it
   * carries ({@link BufferEntry.File#carried}), which is the same shape one level down.
   *
   * @param fileIsBuffer whether an answer of {@code file} itself counts as served by the buffer
   */
  private static LookupResult get(TableCache tables, FileMetaData file, List<BufferTable> buffer, byte[] key,
      long sequence, boolean fillCache, LongAdder served, boolean fileIsBuffer) {
    try (TableHandle h = TableIterators.acquire(tables, file)) {
      if (!h.reader().mayContain(key)) {
        return LookupResult.NOT_PRESENT;
      }
      LookupResult r = walk(tables, buffer, key, sequence, fillCache, served);
      if (r.isDecided()) {
        return r;
      }
      r = h.reader().get(key, sequence, fillCache);
      if (fileIsBuffer && r.isDecided()) {
        served.increment();
      }
      return r;
    }
  }

  /**
   * Walks {@code buffer} newest first: the first file that holds the key (at the snapshot)
   * answers, a removed marker covering the key ends the walk undecided (the newest data of its
   * range may have left the buffer: the caller's file answers).
   */
  private static LookupResult walk(TableCache tables, List<BufferTable> buffer, byte[] key, long sequence,
      boolean fillCache, LongAdder served) {
    for (BufferTable t : buffer) {
      BufferEntry e = t.covering(key);
      if (e instanceof BufferEntry.Removed) {
        break;
      }
      if (e instanceof BufferEntry.File f) {
        LookupResult r;
        if (f.carried().isEmpty()) {
          r = VersionLookup.getFromTable(tables, f.meta(), key, sequence, fillCache);
          if (r.isDecided()) {
            served.increment();
          }
        } else {
          r = get(tables, f.meta(), f.carried(), key, sequence, fillCache, served, true);
        }
        if (r.isDecided()) {
          return r;
        }
      }
    }
    return LookupResult.NOT_PRESENT;
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

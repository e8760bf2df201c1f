package dev.cairn.db;

import dev.cairn.key.LookupResult;
import dev.cairn.key.InternalKey;
import dev.cairn.table.LookupKey;
import dev.cairn.table.TableCache;
import dev.cairn.table.TableHandle;
import dev.cairn.compaction.model.BufferRun;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import java.util.List;

/**
 * Point lookup through a version's tables: L0 files newest first (they may overlap), then at most
 * one file per deeper level (their files do not overlap), stopping at the first value or
 * tombstone. A level with a compaction buffer is read through it ({@link BufferLookup}).
 */
final class VersionLookup {
  private VersionLookup() {}

  static LookupResult get(TableCache tables, Version v, byte[] key, long sequence, boolean fillCache) {
    return get(tables, v, new LookupKey(key, sequence), fillCache, PointReads.UNCOUNTED);
  }

  /** @param reads counts where the read ended and the blocks it read, by level */
  static LookupResult get(TableCache tables, Version v, LookupKey lookup, boolean fillCache, PointReads reads) {
    int blocksBefore = lookup.blockReads();
    LookupResult fromL0 = getFromLevel0(tables, v, lookup, fillCache);
    if (counted(reads, 0, lookup, blocksBefore, fromL0)) {
      return fromL0;
    }
    for (int level = 1; level < v.numLevels(); level++) {
      FileMetaData f = findFile(v.files(level), lookup.userKey());
      if (f != null) {
        List<BufferRun<FileMetaData>> buffer = v.bufferRuns(level);
        blocksBefore = lookup.blockReads();
        LookupResult r = buffer.isEmpty()
            ? getFromTable(tables, f, lookup, fillCache)
            : BufferLookup.get(tables, level, f, buffer, lookup, fillCache, reads);
        if (counted(reads, level, lookup, blocksBefore, r)) {
          return r;
        }
      }
    }
    return LookupResult.NOT_PRESENT;
  }

  /** L0's files newest first (they may overlap): the first decided answer, or NOT_PRESENT. */
  private static LookupResult getFromLevel0(TableCache tables, Version v, LookupKey lookup, boolean fillCache) {
    for (FileMetaData f : v.files(0)) {
      if (covers(f, lookup.userKey())) {
        LookupResult r = getFromTable(tables, f, lookup, fillCache);
        if (r.isDecided()) {
          return r;
        }
      }
    }
    return LookupResult.NOT_PRESENT;
  }

  /**
   * Counts the blocks a read took from the device at {@code level} since {@code blocksBefore},
   * and the level's answer when {@code r} decides the read. Returns whether it does.
   */
  private static boolean counted(PointReads reads, int level, LookupKey lookup, int blocksBefore, LookupResult r) {
    reads.blockReads(level, lookup.blockReads() - blocksBefore);
    if (r.isDecided()) {
      reads.answered(level);
    }
    return r.isDecided();
  }

  private static boolean covers(FileMetaData f, byte[] key) {
    return InternalKey.compareUserKey(key, f.smallest()) >= 0 && InternalKey.compareUserKey(key, f.largest()) <= 0;
  }

  /** The file of a sorted, non-overlapping level whose range holds {@code key}, or null. */
  static FileMetaData findFile(List<FileMetaData> files, byte[] key) {
    int lo = 0;
    int hi = files.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (InternalKey.compareUserKey(key, files.get(mid).largest()) > 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo < files.size() && InternalKey.compareUserKey(key, files.get(lo).smallest()) >= 0) {
      return files.get(lo);
    }
    return null;
  }

  static LookupResult getFromTable(TableCache tables, FileMetaData f, byte[] key, long sequence,
      boolean fillCache) {
    return getFromTable(tables, f, new LookupKey(key, sequence), fillCache);
  }

  static LookupResult getFromTable(TableCache tables, FileMetaData f, LookupKey lookup, boolean fillCache) {
    try (TableHandle h = TableIterators.acquire(tables, f)) {
      return h.reader().get(lookup, fillCache);
    }
  }
}

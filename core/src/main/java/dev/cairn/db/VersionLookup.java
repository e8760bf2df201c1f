package dev.cairn.db;

import dev.cairn.key.LookupResult;
import dev.cairn.key.UserKeys;
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
    return get(tables, v, key, sequence, fillCache, BufferReads.UNCOUNTED);
  }

  /** @param bufferReads counts how the walks of levels with a compaction buffer ended */
  static LookupResult get(TableCache tables, Version v, byte[] key, long sequence, boolean fillCache,
      BufferReads bufferReads) {
    for (FileMetaData f : v.files(0)) {
      if (covers(f, key)) {
        LookupResult r = getFromTable(tables, f, key, sequence, fillCache);
        if (r.isDecided()) {
          return r;
        }
      }
    }
    for (int level = 1; level < v.numLevels(); level++) {
      FileMetaData f = findFile(v.files(level), key);
      if (f != null) {
        List<BufferRun<FileMetaData>> buffer = v.bufferRuns(level);
        LookupResult r = buffer.isEmpty()
            ? getFromTable(tables, f, key, sequence, fillCache)
            : BufferLookup.get(tables, level, f, buffer, key, sequence, fillCache, bufferReads);
        if (r.isDecided()) {
          return r;
        }
      }
    }
    return LookupResult.NOT_PRESENT;
  }

  private static boolean covers(FileMetaData f, byte[] key) {
    return UserKeys.compare(key, f.smallestUserKey()) >= 0 && UserKeys.compare(key, f.largestUserKey()) <= 0;
  }

  /** The file of a sorted, non-overlapping level whose range holds {@code key}, or null. */
  static FileMetaData findFile(List<FileMetaData> files, byte[] key) {
    int lo = 0;
    int hi = files.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (UserKeys.compare(files.get(mid).largestUserKey(), key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo < files.size() && UserKeys.compare(key, files.get(lo).smallestUserKey()) >= 0) {
      return files.get(lo);
    }
    return null;
  }

  static LookupResult getFromTable(TableCache tables, FileMetaData f, byte[] key, long sequence,
      boolean fillCache) {
    try (TableHandle h = TableIterators.acquire(tables, f)) {
      return h.reader().get(key, sequence, fillCache);
    }
  }
}

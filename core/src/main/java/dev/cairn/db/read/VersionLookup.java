package dev.cairn.db.read;

import dev.cairn.db.base.TableIterators;
import dev.cairn.key.InternalKey;
import dev.cairn.key.LookupResult;
import dev.cairn.model.BufferRun;
import dev.cairn.table.LookupKey;
import dev.cairn.table.cache.TableCache;
import dev.cairn.table.cache.TableHandle;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import java.util.List;

/**
 * Point lookup through a version's tables: L0 files newest first (they may overlap), then at most
 * one file per deeper level (their files do not overlap), stopping at the first value or
 * tombstone. A level with a compaction buffer is read through it ({@link BufferLookup}).
 *
 * <p><b>Tables the version keeps.</b> A table's handle is taken from the table cache by the first
 * read of it in a version and kept by the version ({@link Version#keep}) until the version is
 * released; the reads after it use that handle and take no reference of their own. Every read of
 * the current version shares it, so a per-read table-cache lookup and two atomic updates of a
 * reference count that every reader thread writes (its cache line moving between cores on each
 * read) become one volatile read per table (docs/architecture.md, "A version keeps its tables
 * open"). A version keeps its tables only while its files fit the table cache's bounds ({@link
 * TableCache#keepsAll}), so they still hold to within the versions alive at once.
 */
public final class VersionLookup {
  private VersionLookup() {}

  static LookupResult get(TableCache tables, Version v, byte[] key, long sequence, boolean fillCache) {
    return get(tables, v, new LookupKey(key, sequence), fillCache, PointReads.UNCOUNTED);
  }

  /** @param reads counts where the read ended and the blocks it read, by level */
  static LookupResult get(TableCache tables, Version v, LookupKey lookup, boolean fillCache, PointReads reads) {
    int blocksBefore = lookup.blockReads();
    boolean keep = tables.keepsAll(v.totalFiles());
    LookupResult fromL0 = getFromLevel0(tables, v, lookup, fillCache, keep, reads);
    if (counted(reads, 0, lookup, blocksBefore, fromL0)) {
      return fromL0;
    }
    for (int level = 1; level < v.numLevels(); level++) {
      List<FileMetaData> files = v.files(level);
      int index = findFileIndex(files, lookup.userKey());
      if (index >= 0) {
        FileMetaData f = files.get(index);
        List<BufferRun<FileMetaData>> buffer = v.bufferRuns(level);
        blocksBefore = lookup.blockReads();
        LookupResult r = buffer.isEmpty()
            ? getFromVersionTable(tables, v, level, index, keep, lookup, fillCache)
            : BufferLookup.get(tables, level, f, buffer, lookup, fillCache, reads);
        if (counted(reads, level, lookup, blocksBefore, r)) {
          return r;
        }
      }
    }
    return LookupResult.NOT_PRESENT;
  }

  /**
   * L0's files newest first (they may overlap): the first decided answer, or NOT_PRESENT. Tells
   * {@code reads} which table answered.
   */
  private static LookupResult getFromLevel0(TableCache tables, Version v, LookupKey lookup, boolean fillCache,
      boolean keep, PointReads reads) {
    List<FileMetaData> files = v.files(0);
    for (int i = 0; i < files.size(); i++) {
      if (covers(files.get(i), lookup.userKey())) {
        LookupResult r = getFromVersionTable(tables, v, 0, i, keep, lookup, fillCache);
        if (r.isDecided()) {
          reads.answeredInL0(files.get(i).number());
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

  /** The index of the file of a sorted, non-overlapping level whose range holds {@code key}, or -1. */
  static int findFileIndex(List<FileMetaData> files, byte[] key) {
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
      return lo;
    }
    return -1;
  }

  /**
   * Reads the {@code index}th file of {@code level} through the handle {@code v} keeps for it,
   * taking and offering one when it keeps none yet and {@code keep} allows (see the class
   * comment). Requires: the caller holds a reference to {@code v}.
   */
  private static LookupResult getFromVersionTable(TableCache tables, Version v, int level, int index, boolean keep,
      LookupKey lookup, boolean fillCache) {
    if (v.kept(level, index) instanceof TableHandle kept) {
      return kept.reader().get(lookup, fillCache);
    }
    return getOpeningTable(tables, v, level, index, keep, lookup, fillCache);
  }

  /**
   * {@link #getFromVersionTable} when {@code v} keeps no handle for the file yet: once per file
   * and version. Its own method so that the compiler leaves it out of line (it does:
   * docs/results/issue21/s13-jit/): inlined, the table cache's acquire and the close with
   * suppressed exceptions took the inlining budget of the read path's compiled unit, and the
   * calls of a block seek fell past its cutoff (s12-jit/).
   */
  private static LookupResult getOpeningTable(TableCache tables, Version v, int level, int index, boolean keep,
      LookupKey lookup, boolean fillCache) {
    FileMetaData f = v.files(level).get(index);
    if (!keep) {
      return getFromTable(tables, f, lookup, fillCache);
    }
    TableHandle h = TableIterators.acquire(tables, f);
    if (v.keep(level, index, h)) {
      return h.reader().get(lookup, fillCache);
    }
    // Another reader kept its handle first (or the version was released): this one is ours.
    try (h) {
      return h.reader().get(lookup, fillCache);
    }
  }

  public static LookupResult getFromTable(TableCache tables, FileMetaData f, byte[] key, long sequence,
      boolean fillCache) {
    return getFromTable(tables, f, new LookupKey(key, sequence), fillCache);
  }

  static LookupResult getFromTable(TableCache tables, FileMetaData f, LookupKey lookup, boolean fillCache) {
    try (TableHandle h = TableIterators.acquire(tables, f)) {
      return h.reader().get(lookup, fillCache);
    }
  }
}

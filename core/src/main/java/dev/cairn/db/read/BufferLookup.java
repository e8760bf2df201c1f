package dev.cairn.db.read;

import dev.cairn.db.base.TableIterators;
import dev.cairn.key.LookupResult;
import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import dev.cairn.table.LookupKey;
import dev.cairn.table.cache.TableCache;
import dev.cairn.table.cache.TableHandle;
import dev.cairn.version.FileMetaData;
import java.util.List;

/**
 * Point reads of one level through its compaction buffer (LSbM Algorithm 3). The level's own
 * file is consulted first: when its key range or filter rules the key out (and none of its range
 * tombstones covers it), the level's answer is
 * "not here", and by the buffer invariant so is the buffer's, so both are skipped. Otherwise the
 * buffer's tables are walked newest first: the first file that holds the key (at the snapshot)
 * answers, a removed marker covering the key ends the walk, and the level's file answers when
 * the buffer did not. A hit reads (and caches) the buffer file's blocks, which keeps that file
 * warm for the trim; a miss costs one filter probe per covering buffer file. A buffer file that
 * carries its former level's buffer is read the same way, recursively.
 *
 * <p><b>Merge operands.</b> The buffer answers for a key only where its newest entry there is a
 * value or a tombstone: that entry is what the level's file holds newest for the key (the buffer
 * invariant). Operands met in the buffer are not: the merge that made the level's file may have
 * combined them with the value below into one value, so operands from the buffer and the rest
 * from the level's file would apply them twice. A walk that meets an operand is set aside, its
 * operands forgotten, and the level's file answers.
 */
final class BufferLookup {
  private BufferLookup() {}

  /**
   * @param reads counts how the walk of {@code level} ended (a key no buffer entry covers is read
   *     from the level's file alone and counts as no walk)
   */
  static LookupResult get(TableCache tables, int level, FileMetaData levelFile, List<BufferRun<FileMetaData>> buffer,
      LookupKey key, boolean fillCache, PointReads reads) {
    if (!coversAny(buffer, key.userKey())) {
      // Nothing to walk: the walk would find no entry and the level's file answer, so read it
      // as table compaction does, one filter probe and no second table handle (a small buffer
      // over part of a level otherwise costs every read of the level both).
      return VersionLookup.getFromTable(tables, levelFile, key, fillCache);
    }
    try (TableHandle h = TableIterators.acquire(tables, levelFile)) {
      if (!h.reader().mayAnswer(key)) {
        return LookupResult.NOT_PRESENT;
      }
      int blocksBefore = key.blockReads();
      int operandsBefore = key.operands().size();
      Walk w = walk(tables, buffer, key, fillCache);
      reads.bufferBlockReads(level, key.blockReads() - blocksBefore);
      if (key.operands().size() != operandsBefore) {
        key.operands().truncate(operandsBefore);
        w = Walk.NOTHING;
      }
      if (w.answer != null) {
        reads.served(level);
        return w.answer;
      }
      if (w.stoppedAtMarker) {
        reads.stoppedAtMarker(level);
      } else {
        reads.fellThrough(level);
      }
      return h.reader().getPastFilter(key, fillCache);
    }
  }

  /** Whether an entry of some run of {@code buffer} covers {@code userKey} (a walk has something to visit). */
  private static boolean coversAny(List<BufferRun<FileMetaData>> buffer, byte[] userKey) {
    for (BufferRun<FileMetaData> t : buffer) {
      if (t.covering(userKey) != null) {
        return true;
      }
    }
    return false;
  }

  /** How a walk ended: a buffer file's answer, or none (at a marker or past the oldest table). */
  private record Walk(LookupResult answer, boolean stoppedAtMarker) {
    static final Walk STOPPED = new Walk(null, true);
    static final Walk NOTHING = new Walk(null, false);
  }

  /**
   * Walks {@code buffer} newest first: the first file that holds the key (at the snapshot)
   * answers, a removed marker covering the key ends the walk (the newest data of its range may
   * have left the buffer: the caller's file answers), unless it is a filter marker whose filter
   * rules the key out.
   */
  private static Walk walk(TableCache tables, List<BufferRun<FileMetaData>> buffer, LookupKey key, boolean fillCache) {
    for (BufferRun<FileMetaData> t : buffer) {
      BufferEntry<FileMetaData> e = t.covering(key.userKey());
      if (e instanceof BufferEntry.Removed<FileMetaData> m) {
        if (m.stops(key.userKey())) {
          return Walk.STOPPED;
        }
        continue; // a filter marker of a file that never held the key: the walk passed the file too
      }
      if (e instanceof BufferEntry.File<FileMetaData> f) {
        LookupResult r = f.carried().isEmpty()
            ? VersionLookup.getFromTable(tables, f.meta(), key, fillCache)
            : readThrough(tables, f, key, fillCache);
        if (r.isDecided()) {
          return new Walk(r, false);
        }
      }
    }
    return Walk.NOTHING;
  }

  /**
   * A buffer file that carries its former level's buffer, read as that level read it: the
   * file's filter, the carried tables, then the file.
   */
  private static LookupResult readThrough(TableCache tables, BufferEntry.File<FileMetaData> f, LookupKey key,
      boolean fillCache) {
    try (TableHandle h = TableIterators.acquire(tables, f.meta())) {
      if (!h.reader().mayAnswer(key)) {
        return LookupResult.NOT_PRESENT;
      }
      Walk w = walk(tables, f.carried(), key, fillCache);
      return w.answer != null ? w.answer : h.reader().getPastFilter(key, fillCache);
    }
  }

}

package dev.cairn.db.compact;

import dev.cairn.key.InternalKey;
import dev.cairn.key.RangeTombstones;
import dev.cairn.version.FileMetaData;
import java.util.ArrayList;
import java.util.List;

/**
 * Which tables a delete-only compaction may delete without reading them: those every key of
 * which lies under a range tombstone newer than all the table's entries, where every reader that
 * can see one of those entries sees such a tombstone too (Pebble's delete-only compaction).
 *
 * <p>A table {@code F} qualifies when each key of {@code [F.smallest, F.largest]} lies under a
 * tombstone with a sequence in {@code (F.largestSequence, m]}, where {@code m} is the oldest open
 * snapshot at or above {@code F.smallestSequence} (no bound when there is none). A reader at
 * sequence {@code s} sees an entry of {@code F} only if {@code s >= F.smallestSequence}; then
 * {@code s >= m}, so it sees a tombstone over the entry's key newer than the entry, and reads the
 * key as deleted whether {@code F} is there or not. A reader below every entry of {@code F} does
 * not see {@code F}. Point reads never reach {@code F} for such a key either: the tombstone's table
 * lies above {@code F} or before it in L0 (docs/compaction.md, "Range deletions"), and it answers
 * "deleted" first. The table's own tombstones never qualify it, since their sequences are at most
 * its largest; those it holds cover only keys of its range, which the newer tombstone covers for
 * the same readers.
 *
 * <p>Pure: the levels' files, the tombstones of those files and the open snapshots in, the
 * deletable files out.
 */
final class CoveredTables {
  private CoveredTables() {}

  /**
   * The deletable files of each level, in {@code levels}' order; a level with none gets an empty
   * list. {@code tombstones} are those of the levels' files only (a buffer file's tombstone may
   * lie below the level that holds what it covers, and reads are not ordered by it).
   */
  static List<List<FileMetaData>> find(List<List<FileMetaData>> levels, RangeTombstones tombstones,
      long[] snapshotsAscending) {
    List<List<FileMetaData>> result = new ArrayList<>();
    for (List<FileMetaData> files : levels) {
      List<FileMetaData> deletable = new ArrayList<>();
      if (!tombstones.isEmpty()) {
        for (FileMetaData f : files) {
          if (deletable(f, tombstones, snapshotsAscending)) {
            deletable.add(f);
          }
        }
      }
      result.add(deletable);
    }
    return result;
  }

  static boolean deletable(FileMetaData f, RangeTombstones tombstones, long[] snapshotsAscending) {
    long atMost = oldestAtOrAbove(snapshotsAscending, f.smallestSequence());
    return tombstones.coversAll(f.smallestUserKey(), f.largestUserKey(), f.largestSequence(), atMost);
  }

  /** The first of {@code ascending} at or above {@code sequence}, or the largest sequence there is. */
  private static long oldestAtOrAbove(long[] ascending, long sequence) {
    for (long s : ascending) {
      if (s >= sequence) {
        return s;
      }
    }
    return InternalKey.MAX_SEQUENCE;
  }
}

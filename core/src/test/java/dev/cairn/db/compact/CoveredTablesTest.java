package dev.cairn.db.compact;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.key.InternalKey;
import dev.cairn.key.RangeTombstone;
import dev.cairn.key.RangeTombstones;
import dev.cairn.key.ValueType;
import dev.cairn.version.FileMetaData;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which tables a delete-only compaction may delete: each case a table's key span and sequences,
 * the tombstones and the open snapshots, and whether every reader that could see one of the
 * table's entries reads it as deleted anyway.
 */
class CoveredTablesTest {
  private static final long[] NO_SNAPSHOTS = {};

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** A table of user keys [lo, hi] whose entries have sequences [smallestSeq, largestSeq]. */
  private static FileMetaData table(long number, String lo, String hi, long smallestSeq, long largestSeq) {
    return FileMetaData.ofNewTable(number, 1000, 900, InternalKey.encode(b(lo), largestSeq, ValueType.VALUE),
        InternalKey.encode(b(hi), smallestSeq, ValueType.VALUE), 10, smallestSeq, largestSeq);
  }

  private static RangeTombstone t(String from, String to, long seq) {
    return new RangeTombstone(b(from), b(to), seq);
  }

  private static boolean deletable(FileMetaData f, long[] snapshots, RangeTombstone... tombstones) {
    return CoveredTables.deletable(f, RangeTombstones.of(List.of(tombstones)), snapshots);
  }

  @Test
  void aTableWhollyUnderANewerTombstoneGoes() {
    FileMetaData f = table(1, "c", "m", 10, 20);
    assertEquals(true, deletable(f, NO_SNAPSHOTS, t("a", "z", 30)));
    assertEquals(true, deletable(f, NO_SNAPSHOTS, t("c", "m\0", 30)), "the tombstone's end is exclusive: m\\0 covers m");
  }

  @Test
  void aTombstoneThatEndsAtTheLargestKeyDoesNotCoverIt() {
    assertEquals(false, deletable(table(1, "c", "m", 10, 20), NO_SNAPSHOTS, t("a", "m", 30)));
  }

  @Test
  void aTableReachingPastTheTombstoneStays() {
    FileMetaData f = table(1, "c", "m", 10, 20);
    assertEquals(false, deletable(f, NO_SNAPSHOTS, t("d", "z", 30)));
    assertEquals(false, deletable(f, NO_SNAPSHOTS, t("a", "k", 30)));
  }

  @Test
  void aTableWithAnEntryAsNewAsTheTombstoneStays() {
    FileMetaData f = table(1, "c", "m", 10, 30);
    assertEquals(false, deletable(f, NO_SNAPSHOTS, t("a", "z", 30)), "a table's own tombstone never qualifies it");
    assertEquals(false, deletable(f, NO_SNAPSHOTS, t("a", "z", 25)));
  }

  @Test
  void adjacentTombstonesCoverTogetherButAGapDoesNot() {
    FileMetaData f = table(1, "c", "m", 10, 20);
    assertEquals(true, deletable(f, NO_SNAPSHOTS, t("a", "f", 30), t("f", "n", 40)));
    assertEquals(true, deletable(f, NO_SNAPSHOTS, t("a", "h", 30), t("e", "n", 40)), "overlapping");
    assertEquals(false, deletable(f, NO_SNAPSHOTS, t("a", "f", 30), t("g", "n", 40)), "f..g is under none");
    assertEquals(false, deletable(f, NO_SNAPSHOTS, t("a", "f", 30), t("f", "n", 15)),
        "f..n is under a tombstone older than some entries");
  }

  @Test
  void anOlderTombstoneUnderANewerOneDoesNotHideIt() {
    // Both over the whole span: the newer one qualifies.
    assertEquals(true, deletable(table(1, "c", "m", 10, 20), NO_SNAPSHOTS, t("a", "z", 5), t("a", "z", 30)));
  }

  @Test
  void aSnapshotBetweenTheTableAndTheTombstoneKeepsIt() {
    FileMetaData f = table(1, "c", "m", 10, 20);
    assertEquals(false, deletable(f, new long[] {15}, t("a", "z", 30)), "the snapshot at 15 sees entries, not the tombstone");
    assertEquals(false, deletable(f, new long[] {25}, t("a", "z", 30)));
    assertEquals(true, deletable(f, new long[] {5}, t("a", "z", 30)), "a snapshot below every entry sees none");
    assertEquals(true, deletable(f, new long[] {30}, t("a", "z", 30)), "a snapshot at the tombstone sees it");
    assertEquals(true, deletable(f, new long[] {5, 40}, t("a", "z", 30)));
  }

  @Test
  void aTombstoneBelowTheOldestSnapshotThatSeesTheTableQualifiesIt() {
    // The snapshot at 60 sees the entries (10..20) and the tombstone at 50, not the one at 100.
    FileMetaData f = table(1, "c", "m", 10, 20);
    assertEquals(true, deletable(f, new long[] {60}, t("a", "z", 50), t("a", "z", 100)));
    assertEquals(false, deletable(f, new long[] {60}, t("a", "z", 100)));
    assertEquals(false, deletable(f, new long[] {60}, t("a", "h", 50), t("a", "z", 100)),
        "h..m only under the tombstone the snapshot does not see");
  }

  @Test
  void findListsTheDeletableTablesOfEveryLevel() {
    FileMetaData l0 = table(9, "d", "e", 31, 40);
    FileMetaData inside = table(1, "c", "f", 1, 5);
    FileMetaData across = table(2, "g", "p", 1, 5);
    FileMetaData deeper = table(3, "h", "i", 1, 2);
    RangeTombstones tombstones = RangeTombstones.of(List.of(t("b", "k", 30)));
    List<List<FileMetaData>> found = CoveredTables.find(List.of(List.of(l0), List.of(inside, across), List.of(deeper)),
        tombstones, NO_SNAPSHOTS);
    assertEquals(List.of(List.of(), List.of(inside), List.of(deeper)), found);
    assertEquals(List.of(List.of(), List.of()),
        CoveredTables.find(List.of(List.of(l0), List.of(inside)), RangeTombstones.EMPTY, NO_SNAPSHOTS));
  }
}

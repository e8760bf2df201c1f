package dev.cairn;

import dev.cairn.key.UserKeys;
import java.util.List;

/**
 * What {@link Cairn#repair} did: the tables it dropped from the manifest because they were missing
 * or shorter than recorded. Empty when the database needed nothing.
 *
 * @param dropped every dropped table, level tables first
 */
public record RepairReport(List<DroppedTable> dropped) {
  public RepairReport {
    dropped = List.copyOf(dropped);
  }

  /**
   * One dropped table.
   *
   * @param file the table's file name
   * @param level the level whose tables (or whose compaction buffer) named it
   * @param inBuffer whether only the compaction buffer named it: a buffer holds copies of data the
   *     level below holds too, so no key was lost (the range now reads from the level)
   * @param smallestKey the smallest user key the table held
   * @param largestKey the largest user key the table held
   * @param entries the entries the table held
   * @param problem what was wrong ("missing", or how many bytes were left)
   */
  public record DroppedTable(String file, int level, boolean inBuffer, byte[] smallestKey, byte[] largestKey,
      long entries, String problem) {
    /** Whether writes were lost: the table was a level's, not only a buffered copy. */
    public boolean lostData() {
      return !inBuffer;
    }

    @Override
    public String toString() {
      return file + " (" + problem + "): " + (inBuffer ? "a buffered copy in level " + level
          + "'s compaction buffer, nothing lost; the range now reads from the level" : "level " + level + ", "
          + entries + " entries lost") + ", keys [" + UserKeys.printable(smallestKey) + " .. "
          + UserKeys.printable(largestKey) + "]";
    }
  }

  /** Whether any table that held the only copy of its data was dropped. */
  public boolean lostData() {
    return dropped.stream().anyMatch(DroppedTable::lostData);
  }

  @Override
  public String toString() {
    if (dropped.isEmpty()) {
      return "nothing to repair: every table the manifest names is present\n";
    }
    StringBuilder sb = new StringBuilder("dropped " + dropped.size() + " table(s) from the manifest:\n");
    dropped.forEach(d -> sb.append("  ").append(d).append('\n'));
    if (lostData()) {
      sb.append("Keys in the lost ranges now read as their older versions from lower levels, as absent, or (if\n"
          + "a lost table held their deletion) as the value the deletion hid.\n");
    }
    return sb.toString();
  }
}

package dev.cairn.compaction.model;

import java.util.List;

/**
 * One compaction-buffer list of a level (LSbM-tree section 4, "B_i"): sorted runs of files that a
 * merge moved out of the level above instead of deleting them, kept so that their cached blocks
 * keep serving reads. Runs are newest first ({@code B_i^0} first) and may overlap each other;
 * files within a run do not.
 *
 * <p>Not produced yet: the leveled picker only reads buffer lists to decide whether a key range
 * is bottommost. {@code frozen} is LSbM's flag for a list that stops receiving files while
 * repeated data is being written into its level.
 */
public record BufferList(List<SortedRun> runs, boolean frozen) {

  public BufferList {
    runs = List.copyOf(runs);
  }

  public long totalBytes() {
    long total = 0;
    for (SortedRun run : runs) {
      total += run.totalBytes();
    }
    return total;
  }
}

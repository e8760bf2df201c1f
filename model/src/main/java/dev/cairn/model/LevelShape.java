package dev.cairn.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One level of an LSM shape: its sorted runs. (A level's compaction buffer is not part of the
 * shape: the buffer's decisions read it from {@code dev.cairn.model.BufferedLevels}.)
 *
 * <p>Invariants, checked on construction:
 * <ul>
 *   <li>no run is empty (an empty level has no runs);
 *   <li>level 0 holds one run per file, newest first: {@code largestSequence} never increases
 *       along the list, so a reader that stops at the first hit finds the newest version;
 *   <li>levels 1 and deeper hold at most one run, so their files never overlap.
 * </ul>
 */
public record LevelShape(int level, List<SortedRun> runs) {

  /** Newest first: larger largestSequence first, then larger id (the newer file number). */
  public static final Comparator<FileDescriptor> NEWEST_FIRST =
      Comparator.comparingLong(FileDescriptor::largestSequence)
          .thenComparingLong(FileDescriptor::id)
          .reversed();

  public LevelShape {
    if (level < 0) {
      throw new IllegalArgumentException("level must be >= 0: " + level);
    }
    runs = List.copyOf(runs);
    for (SortedRun run : runs) {
      if (run.isEmpty()) {
        throw new IllegalArgumentException("L" + level + ": empty sorted run");
      }
    }
    if (level == 0) {
      for (int i = 0; i < runs.size(); i++) {
        if (runs.get(i).files().size() != 1) {
          throw new IllegalArgumentException(
              "L0: each sorted run holds exactly one file, run " + i + " holds "
                  + runs.get(i).files().size());
        }
        if (i > 0
            && runs.get(i).files().get(0).largestSequence()
                > runs.get(i - 1).files().get(0).largestSequence()) {
          throw new IllegalArgumentException(
              "L0: runs must be newest first, but " + runs.get(i).files().get(0)
                  + " is newer than " + runs.get(i - 1).files().get(0));
        }
      }
    } else if (runs.size() > 1) {
      throw new IllegalArgumentException(
          "L" + level + ": at most one sorted run below L0, found " + runs.size());
    }
  }

  /**
   * A level from its files in any order: L0 files become one run each,
   * newest first; deeper levels' files are sorted by key into a single run (which checks that
   * they do not overlap).
   */
  public static LevelShape of(int level, List<FileDescriptor> files) {
    List<FileDescriptor> sorted = new ArrayList<>(files);
    List<SortedRun> runs = new ArrayList<>();
    if (level == 0) {
      sorted.sort(NEWEST_FIRST);
      for (FileDescriptor f : sorted) {
        runs.add(SortedRun.of(f));
      }
    } else if (!sorted.isEmpty()) {
      sorted.sort((a, b) -> UserKeyOrder.compare(a.smallestKeyRef(), b.smallestKeyRef()));
      runs.add(new SortedRun(sorted));
    }
    return new LevelShape(level, runs);
  }

  public static LevelShape empty(int level) {
    return new LevelShape(level, List.of());
  }

  public boolean isEmpty() {
    return runs.isEmpty();
  }

  /** The files of the level's runs: L0 newest first, else key order. */
  public List<FileDescriptor> files() {
    if (runs.size() == 1) {
      return runs.get(0).files();
    }
    List<FileDescriptor> all = new ArrayList<>();
    for (SortedRun run : runs) {
      all.addAll(run.files());
    }
    return all;
  }

  public int fileCount() {
    int count = 0;
    for (SortedRun run : runs) {
      count += run.files().size();
    }
    return count;
  }

  /** Bytes in the level's runs. */
  public long totalBytes() {
    long total = 0;
    for (SortedRun run : runs) {
      total += run.totalBytes();
    }
    return total;
  }

  /** Valid bytes in the level's runs ({@link SortedRun#validBytes}). */
  public long validBytes() {
    long total = 0;
    for (SortedRun run : runs) {
      total += run.validBytes();
    }
    return total;
  }

  /**
   * Run files holding any key in {@code [smallest, largest]} (null = unbounded): L0 newest first,
   * deeper levels in key order. Not expanded transitively; see the leveled picker for that.
   */
  public List<FileDescriptor> overlapping(byte[] smallest, byte[] largest) {
    if (runs.size() == 1) {
      return runs.get(0).overlapping(smallest, largest);
    }
    List<FileDescriptor> result = new ArrayList<>();
    for (SortedRun run : runs) {
      result.addAll(run.overlapping(smallest, largest));
    }
    return result;
  }
}

package dev.cairn.compaction.leveled;

import dev.cairn.model.FileDescriptor;
import dev.cairn.model.UserKeyOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** LevelDB's seed order: a level's files in key order, from the first past its compaction pointer. */
public final class RoundRobin {
  private RoundRobin() {}

  /**
   * {@code files} in key order (L0's too: LevelDB keeps every level sorted by smallest key, ties by
   * file number), starting at the first whose largest key is above {@code pointer} and wrapping
   * round; from the first file when the pointer is null or past the last file.
   */
  public static List<FileDescriptor> seeds(List<FileDescriptor> files, byte[] pointer) {
    List<FileDescriptor> inKeyOrder = new ArrayList<>(files);
    inKeyOrder.sort(Comparator.<FileDescriptor, byte[]>comparing(FileDescriptor::smallestKey, UserKeyOrder.COMPARATOR)
        .thenComparingLong(FileDescriptor::id));
    int start = 0;
    if (pointer != null) {
      for (int i = 0; i < inKeyOrder.size(); i++) {
        if (inKeyOrder.get(i).compareLargestTo(pointer) > 0) {
          start = i;
          break;
        }
      }
    }
    List<FileDescriptor> seeds = new ArrayList<>(inKeyOrder.size());
    for (int i = 0; i < inKeyOrder.size(); i++) {
      seeds.add(inKeyOrder.get((start + i) % inKeyOrder.size()));
    }
    return seeds;
  }
}

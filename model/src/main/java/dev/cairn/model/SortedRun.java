package dev.cairn.model;

import java.util.ArrayList;
import java.util.List;

/**
 * Files whose key ranges do not overlap, in key order: every file's largest user key is strictly
 * below the next file's smallest user key.
 *
 * <p>Strict, not "less or equal": one user key never spans two files of a run. This is what
 * makes a level's files that overlap a key range a contiguous slice, which the picker relies on
 * to run compactions on disjoint ranges in parallel. Core keeps it by never cutting an output file
 * between two entries of the same user key.
 */
public record SortedRun(List<FileDescriptor> files) {

  public SortedRun {
    files = List.copyOf(files);
    for (int i = 1; i < files.size(); i++) {
      if (!files.get(i - 1).isBefore(files.get(i))) {
        throw new IllegalArgumentException(
            "sorted run out of order or overlapping: " + files.get(i - 1) + " then "
                + files.get(i));
      }
    }
  }

  public static SortedRun of(FileDescriptor... files) {
    return new SortedRun(List.of(files));
  }

  public boolean isEmpty() {
    return files.isEmpty();
  }

  public long totalBytes() {
    long total = 0;
    for (FileDescriptor f : files) {
      total += f.sizeBytes();
    }
    return total;
  }

  /** The bytes of the run's files still reachable from their footers: {@link #totalBytes} less garbage. */
  public long validBytes() {
    long total = 0;
    for (FileDescriptor f : files) {
      total += f.validBytes();
    }
    return total;
  }

  /**
   * The files holding any key in {@code [smallest, largest]} (null = unbounded), in key order.
   * They are a contiguous slice of the run; found by binary search.
   */
  public List<FileDescriptor> overlapping(byte[] smallest, byte[] largest) {
    int from = smallest == null ? 0 : firstEndingAtOrAfter(smallest);
    List<FileDescriptor> result = new ArrayList<>();
    for (int i = from; i < files.size(); i++) {
      FileDescriptor f = files.get(i);
      if (largest != null && f.compareSmallestTo(largest) > 0) {
        break;
      }
      result.add(f);
    }
    return result;
  }

  /** Index of the first file whose largest key is >= {@code key}; {@code size()} if none. */
  private int firstEndingAtOrAfter(byte[] key) {
    int lo = 0;
    int hi = files.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (files.get(mid).compareLargestTo(key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}

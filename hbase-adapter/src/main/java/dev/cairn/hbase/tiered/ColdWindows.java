package dev.cairn.hbase.tiered;

import java.util.List;
import java.util.Optional;

/**
 * Cache-aware input choice for a tiered store: of the contiguous windows of files a compaction
 * could merge, the one whose merge evicts the fewest cached bytes for each file it removes. A
 * compaction's inputs leave the store with their cached blocks, and its output starts cold; the
 * merge that removes as many files while discarding the least of the cache costs the readers
 * least. Only windows in HBase's ratio are candidates, so the choice never merges a large file
 * into small ones that HBase's own rule would leave apart.
 */
final class ColdWindows {
  private ColdWindows() {}

  /**
   * The coldest in-ratio window of {@code files} (oldest first) with {@code minLength..maxLength}
   * files and none that the store keeps out of minor compactions, or none. Windows are contiguous
   * in {@code files}: a bulk-loaded file is never skipped over, so a merge never spans it. Ties go to {@code preferred} (the
   * store's own selection) when it is among them, then to more files, fewer bytes, the newer window.
   */
  static Optional<List<StoreFile>> coldest(
      List<StoreFile> files, int minLength, int maxLength, double ratio, List<StoreFile> preferred) {
    List<StoreFile> best = null;
    double bestCost = 0;
    int bestFrom = 0;
    for (int length = Math.max(2, minLength); length <= Math.min(maxLength, files.size()); length++) {
      for (int from = 0; from + length <= files.size(); from++) {
        List<StoreFile> window = files.subList(from, from + length);
        if (!inRatio(window, ratio) || window.stream().anyMatch(StoreFile::excludedFromMinor)) {
          continue;
        }
        double cost = (double) cachedBytes(window) / (length - 1);
        if (best == null || better(window, cost, from, best, bestCost, bestFrom, preferred)) {
          best = window;
          bestCost = cost;
          bestFrom = from;
        }
      }
    }
    return best == null ? Optional.empty() : Optional.of(List.copyOf(best));
  }

  /**
   * Fewer cached bytes per file removed; then the store's own choice; then more files (as HBase's
   * exploring policy prefers), then fewer bytes, then newer.
   */
  private static boolean better(List<StoreFile> window, double cost, int from,
      List<StoreFile> best, double bestCost, int bestFrom, List<StoreFile> preferred) {
    int byCost = Double.compare(cost, bestCost);
    if (byCost != 0) {
      return byCost < 0;
    }
    boolean isPreferred = window.equals(preferred);
    if (isPreferred != best.equals(preferred)) {
      return isPreferred;
    }
    if (window.size() != best.size()) {
      return window.size() > best.size();
    }
    long bytes = sizeBytes(window);
    long bestBytes = sizeBytes(best);
    if (bytes != bestBytes) {
      return bytes < bestBytes;
    }
    return from + window.size() > bestFrom + best.size();
  }

  /** No file larger than {@code ratio} times the rest of the window together. */
  static boolean inRatio(List<StoreFile> window, double ratio) {
    long total = sizeBytes(window);
    for (StoreFile f : window) {
      if (f.sizeBytes() > ratio * (total - f.sizeBytes())) {
        return false;
      }
    }
    return true;
  }

  static long cachedBytes(List<StoreFile> files) {
    long total = 0;
    for (StoreFile f : files) {
      total += f.cachedBytes();
    }
    return total;
  }

  static long sizeBytes(List<StoreFile> files) {
    long total = 0;
    for (StoreFile f : files) {
      total += f.sizeBytes();
    }
    return total;
  }
}

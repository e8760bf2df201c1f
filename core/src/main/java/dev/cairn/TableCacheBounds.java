package dev.cairn;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * The table cache's bounds when the options leave them to the engine ({@link
 * Options#tableCacheFiles()}, {@link Options#tableCacheBytes()}): a share of the two resources an
 * open table holds, the process's open files and the heap its decoded index and filter take.
 *
 * <p>Each point read consults a table per level, and a table not kept is opened for it: a
 * footer, an index and a filter read and decoded, some 50 us; a kept table whose file was closed
 * for the count opens only its file. A bound that a tree outgrows makes that the cost of most
 * reads (with 1,900 tables of 2 MiB against 500 kept, Cairn served a tenth of the point reads it
 * served with every table kept; docs/decisions/0028), so the bounds follow
 * what the process can spare rather than a fixed count: a quarter of its open-file limit, which
 * leaves the rest to the application and to the engine's own logs and outputs, and an eighth of
 * its heap.
 */
final class TableCacheBounds {
  /** Fewest table files open whatever the limit: the fixed count the engine had before. */
  static final int MIN_FILES = 500;
  /** Most table files open by default, however high the limit. */
  static final int MAX_FILES = 100_000;
  /** Table files open when the process's open-file limit cannot be read. */
  static final int FILES_WHEN_LIMIT_UNKNOWN = 1_000;
  /** Fewest bytes of index and filter kept, however small the heap. */
  static final long MIN_BYTES = 32L << 20;

  private TableCacheBounds() {}

  /**
   * Table files open for a process allowed {@code openFileLimit} open files (0 or less: unknown):
   * a quarter of them, between {@value #MIN_FILES} and {@value #MAX_FILES}.
   */
  static int files(long openFileLimit) {
    if (openFileLimit <= 0) {
      return FILES_WHEN_LIMIT_UNKNOWN;
    }
    return (int) Math.max(MIN_FILES, Math.min(MAX_FILES, openFileLimit / 4));
  }

  /** Bytes of index and filter kept for a heap of at most {@code maxHeapBytes}: an eighth, at least 32 MiB. */
  static long bytes(long maxHeapBytes) {
    return Math.max(MIN_BYTES, maxHeapBytes / 8);
  }

  /** {@link #files} of this process's open-file limit. */
  static int filesForThisProcess() {
    return files(ProcessLimit.OPEN_FILES);
  }

  /** {@link #bytes} of this JVM's maximum heap. */
  static long bytesForThisProcess() {
    return bytes(Runtime.getRuntime().maxMemory());
  }

  /** The process's open-file limit, read once: the JVM raises it to the hard limit at start. */
  private static final class ProcessLimit {
    static final long OPEN_FILES = read();

    private static long read() {
      try {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
          return unix.getMaxFileDescriptorCount();
        }
      } catch (LinkageError | RuntimeException e) {
        // jdk.management not in the module graph, or no such figure here: the limit is unknown.
      }
      return 0;
    }
  }
}

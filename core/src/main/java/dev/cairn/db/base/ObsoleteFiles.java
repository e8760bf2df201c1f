package dev.cairn.db.base;

import dev.cairn.fs.FileNames;
import dev.cairn.fs.FileSystem;
import dev.cairn.table.cache.TableCache;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.Set;

/**
 * Finds files no live version, pending output or live log needs, and deletes them in batches:
 * deletion waits until the obsolete bytes pass {@code batchBytes} (0 deletes at once), which
 * keeps many small unlink calls off the compaction path (BlockDB's lazy deletion). A table is
 * never deleted while any version that an iterator or read still pins references it.
 */
public final class ObsoleteFiles {
  private static final System.Logger LOG = System.getLogger(ObsoleteFiles.class.getName());

  /**
   * What the collector must keep; captured under the engine's mutex, used after it is released.
   *
   * @param firstUnallocated the next file number at capture: every file numbered from it on was
   *     created after the capture and is kept, whatever its kind
   */
  public record LiveSet(Set<Long> liveTables, Set<Long> pendingOutputs, long minLogNumber, long manifestNumber,
      long firstUnallocated) {}

  private final FileSystem fs;
  private final Path dir;
  private final TableCache tableCache;
  private final long batchBytes;
  /** Set after each pass: the obsolete tables' bytes left on disk for a later batch. */
  private final AtomicLong waitingTableBytes;

  public ObsoleteFiles(FileSystem fs, Path dir, TableCache tableCache, long batchBytes, AtomicLong waitingTableBytes) {
    this.fs = fs;
    this.dir = dir;
    this.tableCache = tableCache;
    this.batchBytes = batchBytes;
    this.waitingTableBytes = waitingTableBytes;
  }

  /** Names of the files in the directory that {@code live} does not need; needs no lock. */
  public List<String> find(LiveSet live) throws IOException {
    List<String> obsolete = new ArrayList<>();
    for (String name : fs.list(dir)) {
      FileNames.Parsed p = FileNames.parse(name);
      // Created after the capture (unnumbered names parse as -1, never at or past it).
      boolean keep = p.number() >= live.firstUnallocated() || switch (p.kind()) {
        case LOG -> p.number() >= live.minLogNumber();
        case TABLE -> live.liveTables().contains(p.number()) || live.pendingOutputs().contains(p.number());
        case MANIFEST -> p.number() >= live.manifestNumber();
        case TEMP -> live.pendingOutputs().contains(p.number());
        case LOCK, CURRENT, UNKNOWN -> true;
      };
      if (!keep) {
        obsolete.add(name);
      }
    }
    return obsolete;
  }

  /**
   * Deletes {@code obsolete} (from {@link #find}) if their total size reaches the batch
   * threshold, or always when {@code force}; returns the number of files deleted. A file that
   * cannot be deleted is logged and left for the next pass: a leftover costs space, never
   * correctness. File numbers are never reused, so a file once obsolete stays obsolete and this
   * may run without the engine mutex.
   */
  public int delete(List<String> obsolete, boolean force) {
    if (!force && batchBytes > 0) {
      long bytes = 0;
      long tableBytes = 0;
      for (String name : obsolete) {
        try {
          long size = fs.size(dir.resolve(name));
          bytes += size;
          tableBytes += FileNames.parse(name).kind() == FileNames.Kind.TABLE ? size : 0;
        } catch (IOException e) {
          // Vanished meanwhile; nothing to count.
        }
      }
      if (bytes < batchBytes) {
        waitingTableBytes.set(tableBytes); // on disk until the batch fills: Stats counts them
        return 0;
      }
    }
    waitingTableBytes.set(0);
    int deleted = 0;
    for (String name : obsolete) {
      FileNames.Parsed p = FileNames.parse(name);
      if (p.kind() == FileNames.Kind.TABLE) {
        tableCache.evict(p.number());
      }
      try {
        if (fs.delete(dir.resolve(name))) {
          deleted++;
        }
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "could not delete obsolete file " + dir.resolve(name), e);
      }
    }
    return deleted;
  }
}

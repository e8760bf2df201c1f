package dev.cairn.db.read;

import dev.cairn.compaction.buffer.ScanSources;
import dev.cairn.db.base.TableIterators;
import dev.cairn.fs.IoTag;
import dev.cairn.iter.ClippedIterator;
import dev.cairn.iter.InternalIterator;
import dev.cairn.iter.MergingIterator;
import dev.cairn.key.InternalKey;
import dev.cairn.key.ValueType;
import dev.cairn.model.LevelChanges;
import dev.cairn.table.cache.TableCache;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.Version;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * Range queries through the compaction buffer (LSbM's Algorithm 4 where it is exact, {@link
 * ScanSources}; docs/compaction.md, "Range queries through the buffer"). Keeps, for each level
 * file a buffered merge made of files it appended whole, those files (its sources); an iterator
 * reads such a level file's range from its sources, clipped to the user keys of the file's range,
 * while the pinned version's buffer still holds them over that range. The blocks reads cached for
 * the sources before the merge keep serving scans, where the new file's blocks are cold.
 *
 * <p>The map is soft state: filled at installs under the engine mutex, read by iterators without
 * it (a concurrent map), emptied on reopen. An entry names files by number only; that is safe
 * because a buffered database never changes a file's content (block compaction, which appends to
 * tables, is another style, and this is empty under it), and an iterator opens a source only when
 * its own pinned version's buffer holds it, which keeps it on disk.
 */
public final class BufferScans {
  /** Sources by level file number. */
  private final Map<Long, List<FileMetaData>> sources = new ConcurrentHashMap<>();
  private final LongAdder fromBuffer = new LongAdder();

  /**
   * Requires: engine mutex held, at an install. Records the sources a draft proved (by output file
   * number) and forgets the files the edit takes out of the levels (a file the edit only moves
   * to another level, a two-phase level move, keeps its sources).
   */
  public void recordInstall(Map<Long, List<FileMetaData>> proved, LevelChanges<FileMetaData> changes) {
    Set<Long> added = new HashSet<>();
    for (int level : changes.changedLevels()) {
      changes.added(level).forEach(f -> added.add(f.number()));
    }
    for (int level : changes.changedLevels()) {
      for (FileMetaData f : changes.deleted(level)) {
        if (!added.contains(f.number())) {
          sources.remove(f.number());
        }
      }
    }
    sources.putAll(proved);
  }

  /**
   * How an iterator over {@code version} opens the files of {@code level}: {@link #open} where
   * some may be read from the buffer, else the plain table iterator (no map lookup per file).
   */
  Function<FileMetaData, InternalIterator> opener(TableCache tables, Version version, int level, boolean fillCache) {
    if (sources.isEmpty() || version.bufferRuns(level).isEmpty()) {
      return f -> TableIterators.open(tables, f, fillCache, IoTag.USER_READ);
    }
    return f -> open(tables, version, level, f, fillCache);
  }

  /**
   * An iterator over {@code file}, a file of {@code level} in {@code version}: over its sources when
   * the version's buffer still holds them over its range, else over the file itself.
   */
  private InternalIterator open(TableCache tables, Version version, int level, FileMetaData file, boolean fillCache) {
    List<FileMetaData> from = sources.get(file.number());
    if (from == null || !ScanSources.servable(version.bufferRuns(level), file, from)) {
      return TableIterators.open(tables, file, fillCache, IoTag.USER_READ);
    }
    List<InternalIterator> children = new ArrayList<>(from.size());
    try {
      for (FileMetaData s : from) {
        children.add(TableIterators.open(tables, s, fillCache, IoTag.USER_READ));
      }
    } catch (RuntimeException e) {
      children.forEach(InternalIterator::close);
      throw e;
    }
    fromBuffer.increment();
    // Clipped to whole user keys, not the file's internal-key bounds: a merge that combined a
    // key's merge operands wrote a value where the sources hold the newest operand, with another
    // type and so another internal key, and those bounds would cut the sources' operands off. A
    // table output never splits a user key (TableOutput), so the sources' entries between the two
    // user keys are exactly those the file was made of.
    return new ClippedIterator(new MergingIterator(children),
        InternalKey.seekKey(InternalKey.userKey(file.smallest()), InternalKey.MAX_SEQUENCE),
        InternalKey.encode(InternalKey.userKey(file.largest()), 0, ValueType.DELETION));
  }

  /** Level files an iterator read from their sources since open. */
  public long scannedFromBuffer() {
    return fromBuffer.sum();
  }
}

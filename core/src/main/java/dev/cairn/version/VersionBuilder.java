package dev.cairn.version;

import dev.cairn.Options;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.UserKeys;
import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Applies a sequence of {@link VersionEdit}s to a base {@link Version} and builds the result.
 * Within an edit, deletions apply first, then footer updates (block compaction), then additions
 * (so a file can move between levels, or be re-added with a new footer, in one edit), then
 * compaction-buffer removals before buffer additions (so a buffer entry can be replaced in one
 * edit). Levels no edit touched share the base's lists.
 */
final class VersionBuilder {
  /** Level 0 order: newest first by largest sequence, then by file number. */
  static final Comparator<FileMetaData> NEWEST_FIRST =
      Comparator.comparingLong(FileMetaData::largestSequence)
          .thenComparingLong(FileMetaData::number)
          .reversed();

  /** Levels 1+ order: by smallest internal key, then by file number (deterministic). */
  static final Comparator<FileMetaData> BY_SMALLEST_KEY =
      Comparator.comparing(FileMetaData::smallest, InternalKeyComparator.INSTANCE)
          .thenComparingLong(FileMetaData::number);

  private final Version base;
  /** Touched levels, by file number; null for a level still equal to the base's. */
  private final List<Map<Long, FileMetaData>> levels = new ArrayList<>();
  /**
   * Touched buffers: per level, tables by id (newest first), each entries by smallest user key;
   * null for a level whose buffer is still the base's.
   */
  private final List<TreeMap<Long, TreeMap<byte[], BufferEntry<FileMetaData>>>> buffers = new ArrayList<>();
  /** Files of the levels (not of buffers: a buffer file may also be live in a level). */
  private final Set<Long> live;

  VersionBuilder(Version base) {
    this.base = base;
    for (int i = 0; i < Options.MAX_LEVELS; i++) {
      levels.add(null);
      buffers.add(null);
    }
    this.live = base.levelFileNumbers();
  }

  /**
   * Applies {@code edit}; an edit that does not fit the version (deleting a file that is not at
   * that level, adding a number already live) raises {@code invalid.apply(message)}.
   */
  void apply(VersionEdit edit, Function<String, RuntimeException> invalid) {
    for (VersionEdit.DeletedFile d : edit.deletedFiles()) {
      if (level(d.level()).remove(d.number()) == null) {
        throw invalid.apply("edit deletes file #" + d.number() + " which is not at level " + d.level());
      }
      live.remove(d.number());
    }
    for (VersionEdit.FooterUpdate u : edit.footerUpdates()) {
      long number = u.file().number();
      if (level(u.level()).replace(number, u.file()) == null) {
        throw invalid.apply("edit moves the footer of file #" + number + " which is not at level " + u.level());
      }
    }
    for (VersionEdit.NewFile n : edit.newFiles()) {
      long number = n.file().number();
      if (!live.add(number)) {
        throw invalid.apply("edit adds file #" + number + " to level " + n.level() + " but it is already live");
      }
      level(n.level()).put(number, n.file());
    }
    for (VersionEdit.BufferRemove r : edit.bufferRemoves()) {
      TreeMap<byte[], BufferEntry<FileMetaData>> table = buffer(r.level()).get(r.runId());
      if (table == null || table.remove(r.smallestUserKey()) == null) {
        throw invalid.apply("edit removes the entry at " + UserKeys.printable(r.smallestUserKey())
            + " from buffer run " + r.runId() + " of level " + r.level() + ", which holds none there");
      }
      if (table.isEmpty()) {
        buffer(r.level()).remove(r.runId());
      }
    }
    for (VersionEdit.BufferAdd a : edit.bufferAdds()) {
      TreeMap<byte[], BufferEntry<FileMetaData>> table =
          buffer(a.level()).computeIfAbsent(a.runId(), id -> new TreeMap<>(UserKeys.COMPARATOR));
      BufferEntry<FileMetaData> e = a.entry();
      // Entries of a table never share a user key: check the neighbours on both sides.
      Map.Entry<byte[], BufferEntry<FileMetaData>> below = table.floorEntry(e.largestUserKey());
      if (below != null && UserKeys.compare(below.getValue().largestUserKey(), e.smallestUserKey()) >= 0) {
        throw invalid.apply("edit adds " + e + " to buffer run " + a.runId() + " of level " + a.level()
            + " where it overlaps " + below.getValue());
      }
      table.put(e.smallestUserKey(), e);
    }
  }

  private TreeMap<Long, TreeMap<byte[], BufferEntry<FileMetaData>>> buffer(int level) {
    TreeMap<Long, TreeMap<byte[], BufferEntry<FileMetaData>>> tables = buffers.get(level);
    if (tables == null) {
      tables = new TreeMap<>(Comparator.reverseOrder());
      for (BufferRun<FileMetaData> t : base.bufferRuns(level)) {
        TreeMap<byte[], BufferEntry<FileMetaData>> entries = new TreeMap<>(UserKeys.COMPARATOR);
        for (BufferEntry<FileMetaData> e : t.entries()) {
          entries.put(e.smallestUserKey(), e);
        }
        tables.put(t.id(), entries);
      }
      buffers.set(level, tables);
    }
    return tables;
  }

  /** The buffers in version order (newest table first), sharing untouched levels with the base. */
  List<List<BufferRun<FileMetaData>>> bufferRuns() {
    List<List<BufferRun<FileMetaData>>> out = new ArrayList<>(Options.MAX_LEVELS);
    for (int level = 0; level < Options.MAX_LEVELS; level++) {
      TreeMap<Long, TreeMap<byte[], BufferEntry<FileMetaData>>> tables = buffers.get(level);
      if (tables == null) {
        out.add(base.bufferRuns(level));
      } else {
        List<BufferRun<FileMetaData>> list = new ArrayList<>();
        tables.forEach((id, entries) -> list.add(new BufferRun<>(id, new ArrayList<>(entries.values()))));
        out.add(list);
      }
    }
    return out;
  }

  private Map<Long, FileMetaData> level(int level) {
    Map<Long, FileMetaData> files = levels.get(level);
    if (files == null) {
      files = new LinkedHashMap<>();
      for (FileMetaData f : base.files(level)) {
        files.put(f.number(), f);
      }
      levels.set(level, files);
    }
    return files;
  }

  /** The version with every applied edit; {@code onRelease} and {@code logNumber} as in {@link Version}. */
  Version build(Consumer<Version> onRelease, long logNumber, boolean rangeDeletions) {
    return new Version(sortedLevels(), bufferRuns(), onRelease, logNumber, rangeDeletions);
  }

  /** The levels in invariant order, without building (or paranoid-checking) a version. */
  List<List<FileMetaData>> sortedLevels() {
    List<List<FileMetaData>> out = new ArrayList<>(Options.MAX_LEVELS);
    for (int level = 0; level < Options.MAX_LEVELS; level++) {
      Map<Long, FileMetaData> files = levels.get(level);
      if (files == null) {
        out.add(base.files(level));
      } else {
        List<FileMetaData> sorted = new ArrayList<>(files.values());
        sorted.sort(level == 0 ? NEWEST_FIRST : BY_SMALLEST_KEY);
        out.add(sorted);
      }
    }
    return out;
  }

  Set<Long> liveFileNumbers() {
    return new HashSet<>(live);
  }
}

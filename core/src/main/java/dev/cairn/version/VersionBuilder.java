package dev.cairn.version;

import dev.cairn.Options;
import dev.cairn.key.InternalKeyComparator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Applies a sequence of {@link VersionEdit}s to a base {@link Version} and builds the result.
 * Within an edit, deletions apply first, then footer updates (block compaction), then additions
 * (so a file can move between levels, or be re-added with a new footer, in one edit). Levels no edit touched share the base's lists.
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
  private final Set<Long> live;

  VersionBuilder(Version base) {
    this.base = base;
    for (int i = 0; i < Options.MAX_LEVELS; i++) {
      levels.add(null);
    }
    this.live = base.liveFileNumbers();
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

  /** The version with every applied edit; {@code onRelease} as in {@link Version}. */
  Version build(Consumer<Version> onRelease) {
    return new Version(sortedLevels(), onRelease);
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

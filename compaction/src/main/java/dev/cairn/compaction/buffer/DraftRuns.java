package dev.cairn.compaction.buffer;

import dev.cairn.model.BufferEditSink;
import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import dev.cairn.model.BufferedLevels;
import dev.cairn.model.KeyRanges;
import dev.cairn.model.TableFile;
import dev.cairn.model.UserKeyOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

/**
 * The buffer runs of a {@link BufferDraft}: per level the draft touched, a working copy of the
 * base's runs (by id, newest first; each run's entries by smallest user key), made when the
 * draft first touches the level; and the walks over them: the lookups the draft's operations
 * share (the entries of a run over a range, whether a level has a file over one), the rewrites
 * of every entry (replacing entries, collecting garbage), and the reads of the result (the runs,
 * their files, the diff against the base that is the draft's edit). A level the draft has not
 * touched is read from the base without copying it. Which entries go where, and why that keeps
 * the buffer invariant, is the draft's.
 *
 * <p>Pure and unsynchronized, like the draft: no I/O, no engine state; the engine builds the draft
 * under its mutex.
 */
final class DraftRuns<F extends TableFile> {
  private final BufferedLevels<F> base;
  /** Touched levels: runs by id, newest first; entries by smallest user key. */
  private final Map<Integer, TreeMap<Long, TreeMap<byte[], BufferEntry<F>>>> levels = new HashMap<>();

  DraftRuns(BufferedLevels<F> base) {
    this.base = base;
  }

  /** The runs of {@code level}, which the draft then has touched: changes to them go into its edit. */
  TreeMap<Long, TreeMap<byte[], BufferEntry<F>>> level(int level) {
    return levels.computeIfAbsent(level, l -> copy(base.bufferRuns(l)));
  }

  /** Whether the draft has touched {@code level} (copied its runs). */
  boolean touched(int level) {
    return levels.containsKey(level);
  }

  private static <F extends TableFile> TreeMap<Long, TreeMap<byte[], BufferEntry<F>>> copy(List<BufferRun<F>> runs) {
    TreeMap<Long, TreeMap<byte[], BufferEntry<F>>> out = new TreeMap<>(Comparator.reverseOrder());
    for (BufferRun<F> t : runs) {
      out.put(t.id(), entries(t.entries()));
    }
    return out;
  }

  private static <F extends TableFile> TreeMap<byte[], BufferEntry<F>> entries(List<BufferEntry<F>> list) {
    TreeMap<byte[], BufferEntry<F>> m = new TreeMap<>(UserKeyOrder.COMPARATOR);
    for (BufferEntry<F> e : list) {
      m.put(e.smallestUserKey(), e);
    }
    return m;
  }

  /**
   * Whether a file entry of {@code level}'s buffer in the draft (any run) overlaps [{@code lo},
   * {@code hi}]: where none does, a change of the level there needs no marker ({@link
   * BufferDraft#markRemoved}) and a cold input may be left out ({@link BufferDraft#applyCompaction}).
   * Walks the draft's runs, or the base's for a level the draft has not touched, without copying
   * either.
   */
  boolean anyFileOver(int level, byte[] lo, byte[] hi) {
    if (levels.containsKey(level)) {
      for (TreeMap<byte[], BufferEntry<F>> run : levels.get(level).values()) {
        if (overlapping(run, lo, hi).stream().anyMatch(e -> e instanceof BufferEntry.File)) {
          return true;
        }
      }
      return false;
    }
    for (BufferRun<F> run : base.bufferRuns(level)) {
      if (run.entries().stream().anyMatch(e -> e instanceof BufferEntry.File && e.overlaps(lo, hi))) {
        return true;
      }
    }
    return false;
  }

  /** The level's runs in the draft, without copying a level the draft has not touched. */
  List<BufferRun<F>> current(int level) {
    return levels.containsKey(level) ? runs(level) : base.bufferRuns(level);
  }

  /** The draft's runs of {@code level}, newest first; the draft then has touched the level. */
  List<BufferRun<F>> runs(int level) {
    List<BufferRun<F>> out = new ArrayList<>();
    level(level).forEach((id, entries) -> out.add(new BufferRun<>(id, new ArrayList<>(entries.values()))));
    return out;
  }

  /** Every file the runs of levels {@code 0..numLevels-1} hold, carried files included, each once. */
  Set<F> files(int numLevels) {
    Set<F> out = new HashSet<>();
    for (int level = 0; level < numLevels; level++) {
      for (BufferRun<F> t : runs(level)) {
        out.addAll(t.allFiles());
      }
    }
    return out;
  }

  /** {@link BufferDraft#replaceEntries}: each top-level entry of levels {@code 0..numLevels-1}. */
  void replaceEntries(int numLevels, UnaryOperator<BufferEntry<F>> change) {
    for (int l = 0; l < numLevels; l++) {
      for (TreeMap<byte[], BufferEntry<F>> run : level(l).values()) {
        for (BufferEntry<F> e : List.copyOf(run.values())) {
          BufferEntry<F> changed = change.apply(e);
          if (changed != e) {
            run.remove(e.smallestUserKey());
            if (changed != null) {
              run.put(changed.smallestUserKey(), changed);
            }
          }
        }
      }
    }
  }

  /**
   * {@link BufferDraft#collectGarbage} over the touched levels, judging reachability against
   * {@code levelFilesAfterEdit}, the files of a level once the draft's level changes are applied.
   */
  int collectGarbage(IntFunction<List<F>> levelFilesAfterEdit) {
    int dropped = 0;
    for (Map.Entry<Integer, TreeMap<Long, TreeMap<byte[], BufferEntry<F>>>> level : levels.entrySet()) {
      TreeMap<Long, TreeMap<byte[], BufferEntry<F>>> runs = level.getValue();
      List<F> levelFiles = levelFilesAfterEdit.apply(level.getKey());
      KeyRanges shadow = new KeyRanges(); // the plain markers of newer runs
      for (TreeMap<byte[], BufferEntry<F>> t : runs.values()) {
        for (BufferEntry<F> e : List.copyOf(t.values())) {
          if (e instanceof BufferEntry.File && unreachable(e, levelFiles, shadow)) {
            if (shadow.covers(e.smallestUserKey(), e.largestUserKey())) {
              t.remove(e.smallestUserKey());
            } else { // files of one run never overlap: the marker overlaps nothing there
              t.put(e.smallestUserKey(), new BufferEntry.Removed<>(e.smallestUserKey(), e.largestUserKey()));
            }
            dropped++;
          }
        }
        for (BufferEntry<F> e : t.values()) {
          if (e instanceof BufferEntry.Removed<F> m && m.hidesAll()) { // a filter marker lets keys through
            shadow.add(e.smallestUserKey(), e.largestUserKey());
          }
        }
      }
      List<BufferEntry<F>> olderFiles = new ArrayList<>();
      for (TreeMap<byte[], BufferEntry<F>> t : runs.descendingMap().values()) { // oldest first
        for (BufferEntry<F> e : List.copyOf(t.values())) {
          if (e instanceof BufferEntry.Removed
              && olderFiles.stream().noneMatch(f -> f.overlaps(e.smallestUserKey(), e.largestUserKey()))) {
            t.remove(e.smallestUserKey());
          }
        }
        for (BufferEntry<F> e : t.values()) {
          if (e instanceof BufferEntry.File) {
            olderFiles.add(e);
          }
        }
      }
      runs.values().removeIf(TreeMap::isEmpty);
    }
    return dropped;
  }

  /**
   * Whether no walk can end at buffer file {@code e}: the part of its range under each level file
   * lies inside a merged marker range of newer runs (the rest of its range is outside every
   * level file, where the level, and so the walk, answers "not here").
   */
  private static <F extends TableFile> boolean unreachable(BufferEntry<F> e, List<F> levelFiles, KeyRanges shadow) {
    for (F g : levelFiles) {
      if (e.overlaps(g.smallestUserKey(), g.largestUserKey())
          && !shadow.covers(UserKeyOrder.max(e.smallestUserKey(), g.smallestUserKey()),
              UserKeyOrder.min(e.largestUserKey(), g.largestUserKey()))) {
        return false;
      }
    }
    return true;
  }

  /** Writes the difference between the base and the touched levels into {@code edit}. */
  void writeDiffTo(BufferEditSink<F> edit) {
    levels.forEach((level, runs) -> {
      Map<Long, TreeMap<byte[], BufferEntry<F>>> before = copy(base.bufferRuns(level));
      for (Map.Entry<Long, TreeMap<byte[], BufferEntry<F>>> t : before.entrySet()) {
        TreeMap<byte[], BufferEntry<F>> after = runs.getOrDefault(t.getKey(), new TreeMap<>(UserKeyOrder.COMPARATOR));
        for (BufferEntry<F> e : t.getValue().values()) {
          if (!e.equals(after.get(e.smallestUserKey()))) {
            edit.removeFromBuffer(level, t.getKey(), e);
          }
        }
      }
      for (Map.Entry<Long, TreeMap<byte[], BufferEntry<F>>> t : runs.entrySet()) {
        TreeMap<byte[], BufferEntry<F>> old = before.getOrDefault(t.getKey(), new TreeMap<>(UserKeyOrder.COMPARATOR));
        for (BufferEntry<F> e : t.getValue().values()) {
          if (!e.equals(old.get(e.smallestUserKey()))) {
            edit.addToBuffer(level, t.getKey(), e);
          }
        }
      }
    });
  }

  /** Whether an entry of {@code run} overlaps [{@code lo}, {@code hi}]. */
  static <F extends TableFile> boolean overlapsAny(TreeMap<byte[], BufferEntry<F>> run, byte[] lo, byte[] hi) {
    return !overlapping(run, lo, hi).isEmpty();
  }

  /** The entries of {@code run} that overlap [{@code lo}, {@code hi}], in key order. */
  static <F extends TableFile> List<BufferEntry<F>> overlapping(TreeMap<byte[], BufferEntry<F>> run, byte[] lo, byte[] hi) {
    List<BufferEntry<F>> out = new ArrayList<>();
    Map.Entry<byte[], BufferEntry<F>> below = run.floorEntry(lo);
    if (below != null && below.getValue().overlaps(lo, hi)) {
      out.add(below.getValue());
    }
    for (BufferEntry<F> e : run.subMap(lo, false, hi, true).values()) {
      out.add(e);
    }
    return out;
  }
}

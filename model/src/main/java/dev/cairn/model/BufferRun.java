package dev.cairn.model;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One sorted run of a level's compaction buffer (LSbM's B^j): entries in key order that never
 * share a user key. {@code id} orders the runs of a level, newest (largest id) first. A new
 * newest run takes its id from the file-number counter, above every id in use; a run put below
 * the oldest (a merge's targets) takes the oldest's id minus one, which may be 0 or negative.
 * Ids are unique within a level. Immutable. (The manifest calls a run's id its table id.)
 *
 * @param <F> the engine's table file
 */
public record BufferRun<F extends TableFile>(long id, List<BufferEntry<F>> entries) {
  public BufferRun {
    entries = List.copyOf(entries);
    for (int i = 1; i < entries.size(); i++) {
      if (UserKeyOrder.compare(entries.get(i - 1).largestUserKey(), entries.get(i).smallestUserKey()) >= 0) {
        throw new IllegalArgumentException("buffer run " + id + ": entries " + entries.get(i - 1) + " and "
            + entries.get(i) + " overlap or are out of order");
      }
    }
  }

  /** The entry whose range holds {@code userKey}, or null (binary search). */
  public BufferEntry<F> covering(byte[] userKey) {
    int lo = 0;
    int hi = entries.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (UserKeyOrder.compare(entries.get(mid).largestUserKey(), userKey) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo < entries.size() && UserKeyOrder.compare(userKey, entries.get(lo).smallestUserKey()) >= 0) {
      return entries.get(lo);
    }
    return null;
  }

  /** Entries meeting [{@code smallest}, {@code largest}], in key order. */
  public List<BufferEntry<F>> overlapping(byte[] smallest, byte[] largest) {
    List<BufferEntry<F>> out = new ArrayList<>();
    for (BufferEntry<F> e : entries) {
      if (e.overlaps(smallest, largest)) {
        out.add(e);
      }
    }
    return out;
  }

  /** The files of this run, in key order. */
  public List<F> files() {
    List<F> out = new ArrayList<>();
    for (BufferEntry<F> e : entries) {
      if (e instanceof BufferEntry.File<F> f) {
        out.add(f.meta());
      }
    }
    return out;
  }

  /**
   * The files of this run and, recursively, of the buffers its files carry, each once, in no
   * particular order: every file this run keeps on disk.
   */
  public Set<F> allFiles() {
    Set<F> out = new LinkedHashSet<>();
    for (BufferEntry<F> e : entries) {
      if (e instanceof BufferEntry.File<F> f) {
        out.addAll(f.allFiles());
      }
    }
    return out;
  }

  /**
   * {@code runs} (newest first) narrowed to [{@code lo}, {@code hi}]: each entry clipped, then
   * {@link #prune pruned}. A walk over the result for a key of the range ends with the same
   * answer as over {@code runs}: it meets the same files and markers in the same order, less
   * files it could never reach and markers whose stop changes nothing.
   */
  public static <F extends TableFile> List<BufferRun<F>> clip(List<BufferRun<F>> runs, byte[] lo, byte[] hi) {
    List<BufferRun<F>> out = new ArrayList<>();
    for (BufferRun<F> t : runs) {
      List<BufferEntry<F>> kept = new ArrayList<>();
      for (BufferEntry<F> e : t.entries) {
        BufferEntry<F> c = e.clip(lo, hi);
        if (c != null) {
          kept.add(c);
        }
      }
      out.add(new BufferRun<>(t.id, kept));
    }
    return prune(out);
  }

  /**
   * {@code runs} (newest first) less what no walk can end at: files whose whole range lies under
   * plain markers of newer runs, markers with no file of an older run under them (a walk stopped
   * there finds nothing older anyway), and empty runs. Empty when no file is left, since a
   * buffer of markers alone answers nothing.
   */
  public static <F extends TableFile> List<BufferRun<F>> prune(List<BufferRun<F>> runs) {
    List<List<BufferEntry<F>>> kept = new ArrayList<>();
    KeyRanges markers = new KeyRanges(); // the newer runs' markers
    for (BufferRun<F> t : runs) {
      List<BufferEntry<F>> entries = new ArrayList<>();
      for (BufferEntry<F> e : t.entries) {
        if (!(e instanceof BufferEntry.File) || !markers.covers(e.smallestUserKey(), e.largestUserKey())) {
          entries.add(e);
        }
      }
      for (BufferEntry<F> e : t.entries) {
        if (e instanceof BufferEntry.Removed<F> m && m.hidesAll()) { // a filter marker lets keys through
          markers.add(e.smallestUserKey(), e.largestUserKey());
        }
      }
      kept.add(entries);
    }
    List<BufferEntry<F>> olderFiles = new ArrayList<>();
    List<BufferRun<F>> out = new ArrayList<>();
    for (int i = runs.size() - 1; i >= 0; i--) { // oldest first
      List<BufferEntry<F>> entries = new ArrayList<>();
      for (BufferEntry<F> e : kept.get(i)) {
        if (e instanceof BufferEntry.File
            || olderFiles.stream().anyMatch(f -> f.overlaps(e.smallestUserKey(), e.largestUserKey()))) {
          entries.add(e);
        }
      }
      entries.stream().filter(e -> e instanceof BufferEntry.File).forEach(olderFiles::add);
      if (!entries.isEmpty()) {
        out.add(0, new BufferRun<>(runs.get(i).id, entries));
      }
    }
    return olderFiles.isEmpty() ? List.of() : List.copyOf(out);
  }

  /** {@code runs} as {@code {[entries] [entries]}}, newest first, for messages and tests. */
  public static String render(List<? extends BufferRun<?>> runs) {
    StringBuilder sb = new StringBuilder("{");
    for (BufferRun<?> t : runs) {
      sb.append(sb.length() > 1 ? " " : "").append(t.entries);
    }
    return sb.append('}').toString();
  }

  public int removedMarkers() {
    return (int) entries.stream().filter(e -> e instanceof BufferEntry.Removed).count();
  }
}

package dev.cairn.version;

import dev.cairn.key.UserKeys;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One sorted table of a level's compaction buffer (LSbM's B^j): entries in key order that never
 * share a user key. {@code id} orders the tables of a level, newest (largest id) first. A new
 * newest table takes its id from the file-number counter, above every id in use; a table put
 * below the oldest (a merge's targets) takes the oldest's id minus one, which may be 0 or
 * negative. Ids are unique within a level. Immutable.
 */
public record BufferTable(long id, List<BufferEntry> entries) {
  public BufferTable {
    entries = List.copyOf(entries);
    for (int i = 1; i < entries.size(); i++) {
      if (UserKeys.compare(entries.get(i - 1).largestUserKey(), entries.get(i).smallestUserKey()) >= 0) {
        throw new IllegalArgumentException("buffer table " + id + ": entries " + entries.get(i - 1) + " and "
            + entries.get(i) + " overlap or are out of order");
      }
    }
  }

  /** The entry whose range holds {@code userKey}, or null (binary search). */
  public BufferEntry covering(byte[] userKey) {
    int lo = 0;
    int hi = entries.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (UserKeys.compare(entries.get(mid).largestUserKey(), userKey) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo < entries.size() && UserKeys.compare(userKey, entries.get(lo).smallestUserKey()) >= 0) {
      return entries.get(lo);
    }
    return null;
  }

  /** Entries meeting [{@code smallest}, {@code largest}], in key order. */
  public List<BufferEntry> overlapping(byte[] smallest, byte[] largest) {
    List<BufferEntry> out = new ArrayList<>();
    for (BufferEntry e : entries) {
      if (e.overlaps(smallest, largest)) {
        out.add(e);
      }
    }
    return out;
  }

  /** The files of this table, in key order. */
  public List<FileMetaData> files() {
    List<FileMetaData> out = new ArrayList<>();
    for (BufferEntry e : entries) {
      if (e instanceof BufferEntry.File f) {
        out.add(f.meta());
      }
    }
    return out;
  }

  /**
   * The files of this table and, recursively, of the buffers its files carry, each once, in no
   * particular order: every file this table keeps on disk.
   */
  public Set<FileMetaData> allFiles() {
    Set<FileMetaData> out = new LinkedHashSet<>();
    addAllFiles(out);
    return out;
  }

  private void addAllFiles(Set<FileMetaData> out) {
    for (BufferEntry e : entries) {
      if (e instanceof BufferEntry.File f) {
        out.add(f.meta());
        f.carried().forEach(t -> t.addAllFiles(out));
      }
    }
  }

  /**
   * {@code tables} (newest first) narrowed to [{@code lo}, {@code hi}]: each entry clipped, then
   * {@link #prune pruned}. A walk over the result for a key of the range ends with the same
   * answer as over {@code tables}: it meets the same files and markers in the same order, less
   * files it could never reach and markers whose stop changes nothing.
   */
  public static List<BufferTable> clip(List<BufferTable> tables, byte[] lo, byte[] hi) {
    List<BufferTable> out = new ArrayList<>();
    for (BufferTable t : tables) {
      List<BufferEntry> kept = new ArrayList<>();
      for (BufferEntry e : t.entries) {
        BufferEntry c = e.clip(lo, hi);
        if (c != null) {
          kept.add(c);
        }
      }
      out.add(new BufferTable(t.id, kept));
    }
    return prune(out);
  }

  /**
   * {@code tables} (newest first) less what no walk can end at: files whose whole range lies under
   * markers of newer tables, markers with no file of an older table under them (a walk stopped
   * there finds nothing older anyway), and empty tables. Empty when no file is left, since a
   * buffer of markers alone answers nothing.
   */
  public static List<BufferTable> prune(List<BufferTable> tables) {
    List<List<BufferEntry>> kept = new ArrayList<>();
    KeyRanges markers = new KeyRanges(); // the newer tables' markers
    for (BufferTable t : tables) {
      List<BufferEntry> entries = new ArrayList<>();
      for (BufferEntry e : t.entries) {
        if (!(e instanceof BufferEntry.File) || !markers.covers(e.smallestUserKey(), e.largestUserKey())) {
          entries.add(e);
        }
      }
      for (BufferEntry e : t.entries) {
        if (e instanceof BufferEntry.Removed) {
          markers.add(e.smallestUserKey(), e.largestUserKey());
        }
      }
      kept.add(entries);
    }
    List<BufferEntry> olderFiles = new ArrayList<>();
    List<BufferTable> out = new ArrayList<>();
    for (int i = tables.size() - 1; i >= 0; i--) { // oldest first
      List<BufferEntry> entries = new ArrayList<>();
      for (BufferEntry e : kept.get(i)) {
        if (e instanceof BufferEntry.File
            || olderFiles.stream().anyMatch(f -> f.overlaps(e.smallestUserKey(), e.largestUserKey()))) {
          entries.add(e);
        }
      }
      entries.stream().filter(e -> e instanceof BufferEntry.File).forEach(olderFiles::add);
      if (!entries.isEmpty()) {
        out.add(0, new BufferTable(tables.get(i).id, entries));
      }
    }
    return olderFiles.isEmpty() ? List.of() : List.copyOf(out);
  }

  /** {@code tables} as {@code {[entries] [entries]}}, newest first, for messages and tests. */
  public static String render(List<BufferTable> tables) {
    StringBuilder sb = new StringBuilder("{");
    for (BufferTable t : tables) {
      sb.append(sb.length() > 1 ? " " : "").append(t.entries);
    }
    return sb.append('}').toString();
  }

  public int removedMarkers() {
    return (int) entries.stream().filter(e -> e instanceof BufferEntry.Removed).count();
  }
}

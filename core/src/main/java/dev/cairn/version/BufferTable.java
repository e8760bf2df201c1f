package dev.cairn.version;

import dev.cairn.key.UserKeys;
import java.util.ArrayList;
import java.util.List;

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

  public int removedMarkers() {
    return (int) entries.stream().filter(e -> e instanceof BufferEntry.Removed).count();
  }
}

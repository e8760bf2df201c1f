package dev.cairn.db;

import dev.cairn.key.UserKeys;
import dev.cairn.version.BufferEntry;
import dev.cairn.version.BufferTable;
import dev.cairn.version.FileMetaData;
import dev.cairn.version.KeyRanges;
import dev.cairn.version.Version;
import dev.cairn.version.VersionEdit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/**
 * A working copy of the compaction buffers of a version, changed by the buffer's operations and
 * written back as {@code BUFFER_REMOVE}/{@code BUFFER_ADD} entries of one version edit (the diff
 * between the base and the draft, so that operations may undo each other within one edit). Pure:
 * no I/O, no engine state; the caller holds the engine mutex and installs the edit.
 *
 * <p>Every operation keeps the buffer invariant (docs/compaction.md, "The buffer invariant"): for
 * every level L, user key k and snapshot s, walking L's tables newest first and stopping at the
 * first file holding k (visible at s) or the first removed marker covering k gives the same
 * answer as L's own files.
 *
 * <ul>
 *   <li>{@link #append}: the file carries the newest data of its keys in L (it was just merged
 *       into L), so it answers them; other keys of its range are unchanged in L. A file that
 *       carries its former level's buffer answers as that level did over its range, with the
 *       file as the level's file: the same answer, by that level's invariant.
 *   <li>{@link #appendOldest}: a merge target answers every key the merge input does not hold
 *       as L does; a walk reaches the oldest table only where it would have fallen back to L.
 *   <li>{@link #markRemoved}: a marker in the newest table stops every walk over the range, and
 *       the read falls back to L's file, which is always right.
 *   <li>{@link #dropFile}: the file's range becomes a marker in the same table: same argument.
 *   <li>{@link #split}: the trim keeps a file's hot block runs as parts of the same file and
 *       turns its cold ones into markers; the pieces cover the entry's range with no gap, so each
 *       key is answered by the same file or falls back to L's file.
 *   <li>{@link #collectGarbage}: a file each of whose keys is covered by a marker of a newer
 *       table is dropped (no walk reaches it). A file whose remaining keys lie outside every file
 *       of the level cannot answer a walk either, but it may still stop one: a tombstone it holds
 *       for a key the level no longer has (a bottommost merge dropped it) hides an older buffer
 *       file's value there, and a later appending merge writes no marker on its output level
 *       when a new level file spans the gap. So such a file becomes a marker of its range in its
 *       table, which stops the same walks; a marker that no file of an older table overlaps stops
 *       a walk that would find nothing older anyway, and goes.
 * </ul>
 */
final class BufferDraft {
  private final Version base;
  /** The level changes the edit being built makes (applied to the base before the buffer's). */
  private final VersionEdit levelChanges;
  private final LongSupplier newTableId;
  /** Touched levels: tables by id, newest first; entries by smallest user key. */
  private final Map<Integer, TreeMap<Long, TreeMap<byte[], BufferEntry>>> levels = new HashMap<>();

  /** A draft for an edit that changes no level (a trim). */
  BufferDraft(Version base, LongSupplier newTableId) {
    this(base, new VersionEdit(), newTableId);
  }

  /**
   * @param levelChanges the edit the buffer changes will join; its deleted and new files are the
   *     level changes they accompany
   * @param newTableId allocates a buffer table id, larger than every id in use (file numbers)
   */
  BufferDraft(Version base, VersionEdit levelChanges, LongSupplier newTableId) {
    this.base = base;
    this.levelChanges = levelChanges;
    this.newTableId = newTableId;
  }

  private TreeMap<Long, TreeMap<byte[], BufferEntry>> level(int level) {
    return levels.computeIfAbsent(level, l -> copy(base.bufferTables(l)));
  }

  private static TreeMap<Long, TreeMap<byte[], BufferEntry>> copy(List<BufferTable> tables) {
    TreeMap<Long, TreeMap<byte[], BufferEntry>> out = new TreeMap<>(Comparator.reverseOrder());
    for (BufferTable t : tables) {
      out.put(t.id(), entries(t.entries()));
    }
    return out;
  }

  private static TreeMap<byte[], BufferEntry> entries(List<BufferEntry> list) {
    TreeMap<byte[], BufferEntry> m = new TreeMap<>(UserKeys.COMPARATOR);
    for (BufferEntry e : list) {
      m.put(e.smallestUserKey(), e);
    }
    return m;
  }

  /**
   * Appends {@code file}, just merged into {@code level}, to the level's newest table, or to a new
   * newest table when it would overlap an entry of the newest one. Appending several files of
   * one merge: pass them oldest data first, so that newer data lands in newer tables.
   */
  void append(int level, FileMetaData file) {
    append(level, new BufferEntry.File(file));
  }

  /** {@link #append(int, FileMetaData)} of an entry for the whole file, which may carry a buffer. */
  void append(int level, BufferEntry.File entry) {
    TreeMap<Long, TreeMap<byte[], BufferEntry>> tables = level(level);
    TreeMap<byte[], BufferEntry> newest = tables.isEmpty() ? null : tables.firstEntry().getValue();
    if (newest == null || !overlapsAny(newest, entry.smallestUserKey(), entry.largestUserKey())) {
      if (newest == null) {
        newest = new TreeMap<>(UserKeys.COMPARATOR);
        tables.put(newTableId.getAsLong(), newest);
      }
    } else {
      newest = new TreeMap<>(UserKeys.COMPARATOR);
      tables.put(newTableId.getAsLong(), newest);
    }
    newest.put(entry.smallestUserKey(), entry);
  }

  /**
   * Adds {@code file}, a target that a merge into {@code level} just rewrote, as the level's
   * oldest buffer data: into the oldest table when it overlaps nothing there, else into a new
   * table below it (its id one less than the oldest's: ids order tables and may go below 1).
   *
   * <p>A walk reaches the oldest table only when no newer table answered or stopped it: it would
   * otherwise have fallen back to the level, and the target answers as the level does for every
   * key the merge's input does not hold (those the input's newer table answers first). So the
   * keys a merge rewrote keep being read where they were cached: at the target's blocks, for
   * reads that fell through to the level, and at the older buffer files that already served the
   * others (the target goes below them, so it does not take their reads to its colder copy).
   */
  void appendOldest(int level, FileMetaData file) {
    TreeMap<Long, TreeMap<byte[], BufferEntry>> tables = level(level);
    BufferEntry entry = new BufferEntry.File(file);
    TreeMap<byte[], BufferEntry> oldest = tables.isEmpty() ? null : tables.lastEntry().getValue();
    if (oldest != null && !overlapsAny(oldest, entry.smallestUserKey(), entry.largestUserKey())) {
      oldest.put(entry.smallestUserKey(), entry);
      return;
    }
    long id = tables.isEmpty() ? newTableId.getAsLong() : tables.lastKey() - 1;
    TreeMap<byte[], BufferEntry> table = new TreeMap<>(UserKeys.COMPARATOR);
    table.put(entry.smallestUserKey(), entry);
    tables.put(id, table);
  }

  /**
   * Records that {@code level}'s content changed over [{@code smallest}, {@code largest}] without
   * an append: a removed marker in the newest table, merged with the markers it overlaps there,
   * or in a new newest table when a file of the newest one overlaps the range. Nothing when no
   * buffer file of the level overlaps the range (there is nothing stale to hide).
   */
  void markRemoved(int level, byte[] smallest, byte[] largest) {
    if (base.bufferTables(level).isEmpty() && !levels.containsKey(level)) {
      return;
    }
    TreeMap<Long, TreeMap<byte[], BufferEntry>> tables = level(level);
    boolean anyFile = false;
    for (TreeMap<byte[], BufferEntry> t : tables.values()) {
      for (BufferEntry e : t.values()) {
        anyFile |= e instanceof BufferEntry.File && e.overlaps(smallest, largest);
      }
    }
    if (!anyFile) {
      return;
    }
    TreeMap<byte[], BufferEntry> newest = tables.firstEntry().getValue();
    byte[] lo = smallest;
    byte[] hi = largest;
    List<BufferEntry> overlapping = overlapping(newest, lo, hi);
    if (overlapping.stream().anyMatch(e -> e instanceof BufferEntry.File)) {
      newest = new TreeMap<>(UserKeys.COMPARATOR);
      tables.put(newTableId.getAsLong(), newest);
    } else {
      for (BufferEntry m : overlapping) {
        lo = min(lo, m.smallestUserKey());
        hi = max(hi, m.largestUserKey());
        newest.remove(m.smallestUserKey());
      }
    }
    BufferEntry.Removed marker = new BufferEntry.Removed(lo, hi);
    newest.put(marker.smallestUserKey(), marker);
  }

  /**
   * The buffer's part of the compaction whose level changes this draft was made for: with {@code
   * append}, the files the edit deletes from {@code inputLevel} are appended to {@code
   * outputLevel}'s buffer (oldest data first) and the targets it deletes from {@code
   * outputLevel} join that buffer's oldest table ({@link #appendOldest}); every other level >= 1
   * the edit changes gets a removed marker over each file it adds or deletes there. With {@code
   * carry}, each appended file of a level >= 1 carries that level's buffer over its range ({@link
   * BufferEntry.File#carried}): walked below the file's filter and above the file, it answers
   * every key of the range as it did at the input level, where the file was the level's file.
   * Returns the files appended.
   */
  int applyCompaction(int inputLevel, int outputLevel, boolean append, boolean carry) {
    VersionEdit edit = levelChanges;
    Set<Integer> changed = new TreeSet<>();
    edit.deletedFiles().forEach(d -> changed.add(d.level()));
    edit.newFiles().forEach(n -> changed.add(n.level()));
    edit.footerUpdates().forEach(u -> changed.add(u.level()));
    for (int level : changed) {
      if (level == 0 || (append && level == outputLevel)) {
        continue; // L0 has no buffer; the append covers the output level's change
      }
      for (FileMetaData f : deletedFiles(base, edit, level)) {
        markRemoved(level, f.smallestUserKey(), f.largestUserKey());
      }
      for (VersionEdit.NewFile n : edit.newFiles()) {
        if (n.level() == level) {
          markRemoved(level, n.file().smallestUserKey(), n.file().largestUserKey());
        }
      }
      // A block compaction's append changes a live table in place (a leftover buffer of a
      // database reopened with the BLOCK style): its old and new ranges get markers.
      for (VersionEdit.FooterUpdate u : edit.footerUpdates()) {
        if (u.level() == level) {
          for (FileMetaData f : base.files(level)) {
            if (f.number() == u.file().number()) {
              markRemoved(level, f.smallestUserKey(), f.largestUserKey());
            }
          }
          markRemoved(level, u.file().smallestUserKey(), u.file().largestUserKey());
        }
      }
    }
    if (!append) {
      return 0;
    }
    // Oldest data first, so that of two overlapping L0 inputs the newer lands in a newer table.
    List<FileMetaData> inputs = new ArrayList<>(deletedFiles(base, edit, inputLevel));
    inputs.sort(Comparator.comparingLong(FileMetaData::largestSequence).thenComparingLong(FileMetaData::number));
    for (FileMetaData f : inputs) {
      List<BufferTable> carried = carry && inputLevel >= 1
          ? BufferTable.clip(base.bufferTables(inputLevel), f.smallestUserKey(), f.largestUserKey())
          : List.of();
      append(outputLevel, new BufferEntry.File(f).withCarried(carried));
    }
    List<FileMetaData> targets = deletedFiles(base, edit, outputLevel);
    for (FileMetaData target : targets) {
      appendOldest(outputLevel, target);
    }
    return inputs.size() + targets.size();
  }

  /** The metadata, from {@code v}, of the files {@code edit} deletes from {@code level}. */
  static List<FileMetaData> deletedFiles(Version v, VersionEdit edit, int level) {
    Map<Long, FileMetaData> byNumber = new HashMap<>();
    for (FileMetaData f : v.files(level)) {
      byNumber.put(f.number(), f);
    }
    List<FileMetaData> out = new ArrayList<>();
    for (VersionEdit.DeletedFile d : edit.deletedFiles()) {
      FileMetaData f = d.level() == level ? byNumber.get(d.number()) : null;
      if (f != null) {
        out.add(f);
      }
    }
    return out;
  }

  /** Replaces buffer file {@code fileNumber} of table {@code tableId} (every part of it) by markers of its parts. */
  void dropFile(int level, long tableId, long fileNumber) {
    TreeMap<byte[], BufferEntry> table = Objects.requireNonNull(level(level).get(tableId), "no such table");
    boolean found = false;
    for (BufferEntry e : List.copyOf(table.values())) {
      if (e instanceof BufferEntry.File f && f.meta().number() == fileNumber) {
        table.put(e.smallestUserKey(), new BufferEntry.Removed(e.smallestUserKey(), e.largestUserKey()));
        found = true;
      }
    }
    if (!found) {
      throw new IllegalArgumentException("file #" + fileNumber + " is not in buffer table " + tableId);
    }
  }

  /**
   * Replaces {@code entry} of table {@code tableId} by {@code pieces}: parts of the same file and
   * removed markers that together cover exactly the entry's range ({@link TrimUnits#split}).
   * Every key the entry answered for is then answered by a part (the same file) or ends the walk
   * at a marker. Returns false, changing nothing, when the table no longer holds the entry (a
   * merge or the garbage collection changed it since the trim judged it).
   */
  boolean split(int level, long tableId, BufferEntry.File entry, List<BufferEntry> pieces) {
    TreeMap<byte[], BufferEntry> table = level(level).get(tableId);
    if (table == null || !entry.equals(table.get(entry.smallestUserKey()))) {
      return false;
    }
    if (pieces.isEmpty() || !Arrays.equals(pieces.get(0).smallestUserKey(), entry.smallestUserKey())
        || !Arrays.equals(pieces.get(pieces.size() - 1).largestUserKey(), entry.largestUserKey())) {
      throw new IllegalArgumentException("pieces " + pieces + " do not span " + entry);
    }
    table.remove(entry.smallestUserKey());
    for (BufferEntry p : pieces) {
      table.put(p.smallestUserKey(), p);
    }
    return true;
  }

  /**
   * Drops, in every touched level, the files no walk can end at: a file hidden by markers of
   * newer tables goes; one that is hidden only where the level has a file becomes a marker of its
   * range (it may hold the tombstone that hides an older file's value in a gap of the level).
   * Then drops markers that no file of an older table overlaps, then empty tables. Returns the
   * files dropped or turned into markers.
   */
  int collectGarbage() {
    int dropped = 0;
    for (Map.Entry<Integer, TreeMap<Long, TreeMap<byte[], BufferEntry>>> level : levels.entrySet()) {
      TreeMap<Long, TreeMap<byte[], BufferEntry>> tables = level.getValue();
      List<FileMetaData> levelFiles = levelFilesAfterEdit(level.getKey());
      KeyRanges shadow = new KeyRanges(); // the markers of newer tables
      for (TreeMap<byte[], BufferEntry> t : tables.values()) {
        for (BufferEntry e : List.copyOf(t.values())) {
          if (e instanceof BufferEntry.File && unreachable(e, levelFiles, shadow)) {
            if (shadow.covers(e.smallestUserKey(), e.largestUserKey())) {
              t.remove(e.smallestUserKey());
            } else { // files of one table never overlap: the marker overlaps nothing there
              t.put(e.smallestUserKey(), new BufferEntry.Removed(e.smallestUserKey(), e.largestUserKey()));
            }
            dropped++;
          }
        }
        for (BufferEntry e : t.values()) {
          if (e instanceof BufferEntry.Removed) {
            shadow.add(e.smallestUserKey(), e.largestUserKey());
          }
        }
      }
      List<BufferEntry> olderFiles = new ArrayList<>();
      for (TreeMap<byte[], BufferEntry> t : tables.descendingMap().values()) { // oldest first
        for (BufferEntry e : List.copyOf(t.values())) {
          if (e instanceof BufferEntry.Removed
              && olderFiles.stream().noneMatch(f -> f.overlaps(e.smallestUserKey(), e.largestUserKey()))) {
            t.remove(e.smallestUserKey());
          }
        }
        for (BufferEntry e : t.values()) {
          if (e instanceof BufferEntry.File) {
            olderFiles.add(e);
          }
        }
      }
      tables.values().removeIf(TreeMap::isEmpty);
    }
    return dropped;
  }

  /**
   * Whether no walk can end at buffer file {@code e}: the part of its range under each level file
   * lies inside a merged marker range of newer tables (the rest of its range is outside every
   * level file, where the level, and so the walk, answers "not here").
   */
  private static boolean unreachable(BufferEntry e, List<FileMetaData> levelFiles, KeyRanges shadow) {
    for (FileMetaData g : levelFiles) {
      if (e.overlaps(g.smallestUserKey(), g.largestUserKey())
          && !shadow.covers(max(e.smallestUserKey(), g.smallestUserKey()), min(e.largestUserKey(), g.largestUserKey()))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The files of {@code level} once the level changes of the edit are applied: deletions, new
   * files, and footer updates (a block append widens a live file's range in place).
   */
  private List<FileMetaData> levelFilesAfterEdit(int level) {
    Set<Long> deleted = new HashSet<>();
    levelChanges.deletedFiles().forEach(d -> {
      if (d.level() == level) {
        deleted.add(d.number());
      }
    });
    Map<Long, FileMetaData> updated = new HashMap<>();
    levelChanges.footerUpdates().forEach(u -> {
      if (u.level() == level) {
        updated.put(u.file().number(), u.file());
      }
    });
    List<FileMetaData> out = new ArrayList<>();
    for (FileMetaData f : base.files(level)) {
      if (!deleted.contains(f.number())) {
        out.add(updated.getOrDefault(f.number(), f));
      }
    }
    levelChanges.newFiles().forEach(n -> {
      if (n.level() == level) {
        out.add(n.file());
      }
    });
    return out;
  }

  /** Writes the difference between the base and this draft into {@code edit}. */
  void writeTo(VersionEdit edit) {
    levels.forEach((level, tables) -> {
      Map<Long, TreeMap<byte[], BufferEntry>> before = copy(base.bufferTables(level));
      for (Map.Entry<Long, TreeMap<byte[], BufferEntry>> t : before.entrySet()) {
        TreeMap<byte[], BufferEntry> after = tables.getOrDefault(t.getKey(), new TreeMap<>(UserKeys.COMPARATOR));
        for (BufferEntry e : t.getValue().values()) {
          if (!e.equals(after.get(e.smallestUserKey()))) {
            edit.removeFromBuffer(level, t.getKey(), e);
          }
        }
      }
      for (Map.Entry<Long, TreeMap<byte[], BufferEntry>> t : tables.entrySet()) {
        TreeMap<byte[], BufferEntry> old = before.getOrDefault(t.getKey(), new TreeMap<>(UserKeys.COMPARATOR));
        for (BufferEntry e : t.getValue().values()) {
          if (!e.equals(old.get(e.smallestUserKey()))) {
            edit.addToBuffer(level, t.getKey(), e);
          }
        }
      }
    });
  }

  /** The draft's tables of {@code level}, newest first (for tests and decisions). */
  List<BufferTable> tables(int level) {
    List<BufferTable> out = new ArrayList<>();
    level(level).forEach((id, entries) -> out.add(new BufferTable(id, new ArrayList<>(entries.values()))));
    return out;
  }

  private static boolean overlapsAny(TreeMap<byte[], BufferEntry> table, byte[] lo, byte[] hi) {
    return !overlapping(table, lo, hi).isEmpty();
  }

  private static List<BufferEntry> overlapping(TreeMap<byte[], BufferEntry> table, byte[] lo, byte[] hi) {
    List<BufferEntry> out = new ArrayList<>();
    Map.Entry<byte[], BufferEntry> below = table.floorEntry(lo);
    if (below != null && below.getValue().overlaps(lo, hi)) {
      out.add(below.getValue());
    }
    for (BufferEntry e : table.subMap(lo, false, hi, true).values()) {
      out.add(e);
    }
    return out;
  }

  private static byte[] min(byte[] a, byte[] b) {
    return UserKeys.compare(a, b) <= 0 ? a : b;
  }

  private static byte[] max(byte[] a, byte[] b) {
    return UserKeys.compare(a, b) >= 0 ? a : b;
  }
}

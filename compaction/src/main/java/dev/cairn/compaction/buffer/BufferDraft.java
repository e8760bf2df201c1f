package dev.cairn.compaction.buffer;

import dev.cairn.model.BufferEditSink;
import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import dev.cairn.model.BufferedLevels;
import dev.cairn.model.LevelChanges;
import dev.cairn.model.TableFile;
import dev.cairn.model.UserKeyOrder;
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
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * A working copy of the compaction buffers of a version, changed by the buffer's operations and
 * written back as the entries to remove and add ({@link BufferEditSink}; the manifest's {@code
 * BUFFER_REMOVE}/{@code BUFFER_ADD}) of one version edit: the diff between the base and the
 * draft, so that operations may undo each other within one edit. Pure: no I/O, no engine state;
 * the engine builds it under its mutex and installs the edit.
 *
 * <p>Every operation keeps the buffer invariant (docs/compaction.md, "The buffer invariant"): for
 * every level L, user key k and snapshot s, walking L's runs newest first and stopping at the
 * first file holding k (visible at s) or the first removed marker covering k gives the same
 * answer as L's own files.
 *
 * <ul>
 *   <li>{@link #append}: the file carries the newest data of its keys in L (it was just merged
 *       into L), so it answers them; other keys of its range are unchanged in L. A file that
 *       carries its former level's buffer answers as that level did over its range, with the
 *       file as the level's file: the same answer, by that level's invariant.
 *   <li>{@link #appendOldest}: a merge target answers every key the merge input does not hold
 *       as L does; a walk reaches the oldest run only where it would have fallen back to L.
 *   <li>{@link #applyCompaction} leaving out a cold arrival: nothing lies below a target (it
 *       would be the oldest entry over its range), so leaving it out only turns a walk's end into
 *       a fallback to L; an input is left out only where no buffer file of L overlaps it, so a
 *       walk over its range finds no file and stops at a marker or falls back to L.
 *   <li>{@link #markRemoved}: a marker in the newest run stops every walk over the range, and
 *       the read falls back to L's file, which is always right.
 *   <li>{@link #dropFile}: the file's range becomes a marker in the same run: same argument.
 *   <li>{@link #split}: the trim keeps a file's hot block runs as parts of the same file and
 *       turns its cold ones into markers; the pieces cover the entry's range with no gap, so each
 *       key is answered by the same file or falls back to L's file.
 *   <li>{@link #collectGarbage}: a file each of whose keys is covered by a marker of a newer
 *       run is dropped (no walk reaches it). A file whose remaining keys lie outside every file
 *       of the level cannot answer a walk either, but it may still stop one: a tombstone it holds
 *       for a key the level no longer has (a bottommost merge dropped it) hides an older buffer
 *       file's value there, and a later appending merge writes no marker on its output level
 *       when a new level file spans the gap. So such a file becomes a marker of its range in its
 *       run, which stops the same walks; a marker that no file of an older run overlaps stops
 *       a walk that would find nothing older anyway, and goes.
 * </ul>
 */
public final class BufferDraft<F extends TableFile> {
  private final BufferedLevels<F> base;
  /** The level changes of the edit being built (applied to the base before the buffer's). */
  private final LevelChanges<F> levelChanges;
  private final LongSupplier newRunId;
  /** Files {@link #applyCompaction} left out as cold arrivals. */
  private int coldArrivalsLeftOut;
  /** What {@link #applyCompaction} proved a scan may read instead of each output. */
  private Map<Long, List<F>> scanSources = Map.of();
  /** The runs of the levels this draft touched. */
  private final DraftRuns<F> draftRuns;
  /** The extra space those runs hold and the evictions that bound it. */
  private final SpaceBound<F> spaceBound;

  /** A draft for an edit that changes no level (a trim). */
  public BufferDraft(BufferedLevels<F> base, LongSupplier newRunId) {
    this(base, LevelChanges.none(), newRunId);
  }

  /**
   * @param levelChanges the level changes of the edit the buffer changes will join
   * @param newRunId allocates a buffer run id, larger than every id in use (file numbers)
   */
  public BufferDraft(BufferedLevels<F> base, LevelChanges<F> levelChanges, LongSupplier newRunId) {
    this.base = base;
    this.levelChanges = levelChanges;
    this.newRunId = newRunId;
    this.draftRuns = new DraftRuns<>(base);
    this.spaceBound = new SpaceBound<>(draftRuns, this::levelFilesAfterEdit);
  }

  private TreeMap<Long, TreeMap<byte[], BufferEntry<F>>> level(int level) {
    return draftRuns.level(level);
  }

  /**
   * Appends {@code file}, just merged into {@code level}, to the level's newest run, or to a new
   * newest run when it would overlap an entry of the newest one. Appending several files of
   * one merge: pass them oldest data first, so that newer data lands in newer runs.
   */
  public void append(int level, F file) {
    append(level, new BufferEntry.File<>(file));
  }

  /** {@link #append(int, F)} of an entry for the whole file, which may carry a buffer. */
  public void append(int level, BufferEntry.File<F> entry) {
    TreeMap<Long, TreeMap<byte[], BufferEntry<F>>> runs = level(level);
    TreeMap<byte[], BufferEntry<F>> newest = runs.isEmpty() ? null : runs.firstEntry().getValue();
    if (newest == null || !DraftRuns.overlapsAny(newest, entry.smallestUserKey(), entry.largestUserKey())) {
      if (newest == null) {
        newest = new TreeMap<>(UserKeyOrder.COMPARATOR);
        runs.put(newRunId.getAsLong(), newest);
      }
    } else {
      newest = new TreeMap<>(UserKeyOrder.COMPARATOR);
      runs.put(newRunId.getAsLong(), newest);
    }
    newest.put(entry.smallestUserKey(), entry);
  }

  /**
   * Adds {@code file}, a target that a merge into {@code level} just rewrote, as the level's
   * oldest buffer data: into the oldest run when it overlaps nothing there, else into a new
   * run below it (its id one less than the oldest's: ids order runs and may go below 1).
   *
   * <p>A walk reaches the oldest run only when no newer run answered or stopped it: it would
   * otherwise have fallen back to the level, and the target answers as the level does for every
   * key the merge's input does not hold (those the input's newer run answers first). So the
   * keys a merge rewrote keep being read where they were cached: at the target's blocks, for
   * reads that fell through to the level, and at the older buffer files that already served the
   * others (the target goes below them, so it does not take their reads to its colder copy).
   */
  public void appendOldest(int level, F file) {
    TreeMap<Long, TreeMap<byte[], BufferEntry<F>>> runs = level(level);
    BufferEntry<F> entry = new BufferEntry.File<>(file);
    TreeMap<byte[], BufferEntry<F>> oldest = runs.isEmpty() ? null : runs.lastEntry().getValue();
    if (oldest != null && !DraftRuns.overlapsAny(oldest, entry.smallestUserKey(), entry.largestUserKey())) {
      oldest.put(entry.smallestUserKey(), entry);
      return;
    }
    long id = runs.isEmpty() ? newRunId.getAsLong() : runs.lastKey() - 1;
    TreeMap<byte[], BufferEntry<F>> run = new TreeMap<>(UserKeyOrder.COMPARATOR);
    run.put(entry.smallestUserKey(), entry);
    runs.put(id, run);
  }

  /**
   * Records that {@code level}'s content changed over [{@code smallest}, {@code largest}] without
   * an append: a removed marker in the newest run, merged with the markers it overlaps there,
   * or in a new newest run when a file of the newest one overlaps the range. Nothing when no
   * buffer file of the level overlaps the range (there is nothing stale to hide).
   */
  public void markRemoved(int level, byte[] smallest, byte[] largest) {
    if (base.bufferRuns(level).isEmpty() && !draftRuns.touched(level)) {
      return;
    }
    TreeMap<Long, TreeMap<byte[], BufferEntry<F>>> runs = level(level);
    if (!draftRuns.anyFileOver(level, smallest, largest)) {
      return;
    }
    TreeMap<byte[], BufferEntry<F>> newest = runs.firstEntry().getValue();
    byte[] lo = smallest;
    byte[] hi = largest;
    List<BufferEntry<F>> overlapping = DraftRuns.overlapping(newest, lo, hi);
    if (overlapping.stream().anyMatch(e -> e instanceof BufferEntry.File)) {
      newest = new TreeMap<>(UserKeyOrder.COMPARATOR);
      runs.put(newRunId.getAsLong(), newest);
    } else {
      for (BufferEntry<F> m : overlapping) {
        lo = UserKeyOrder.min(lo, m.smallestUserKey());
        hi = UserKeyOrder.max(hi, m.largestUserKey());
        newest.remove(m.smallestUserKey());
      }
    }
    BufferEntry.Removed<F> marker = new BufferEntry.Removed<>(lo, hi);
    newest.put(marker.smallestUserKey(), marker);
  }

  /**
   * The buffer's part of the compaction whose level changes this draft was made for: with {@code
   * append}, the files the edit deletes from {@code inputLevel} are appended to {@code
   * outputLevel}'s buffer (oldest data first) and the targets it deletes from {@code
   * outputLevel} join that buffer's oldest run ({@link #appendOldest}); every other level >= 1
   * the edit changes gets a removed marker over each file it adds or deletes there. With {@code
   * carry}, each appended file of a level >= 1 carries that level's buffer over its range ({@link
   * BufferEntry.File#carried}): walked below the file's filter and above the file, it answers
   * every key of the range as it did at the input level, where the file was the level's file.
   * Returns the files appended.
   */
  public int applyCompaction(int inputLevel, int outputLevel, boolean append, boolean carry) {
    return applyCompaction(inputLevel, outputLevel, append, carry, f -> true);
  }

  /**
   * {@link #applyCompaction(int, int, boolean, boolean)}, leaving out the <em>cold arrivals</em>
   * where no marker is needed: files for which {@code warm} holds for none of the files the
   * entry would name (the file and, for an input, the buffer it carries). A cold target is
   * always left out: it would join the oldest run or a new run under it, so nothing lies below
   * it, and without it a walk that found no answer above falls back to the level, which is
   * always right. A cold input is left out only when
   * no buffer file of the output level overlaps its range, those this merge appends (older
   * inputs, kept targets) included: a walk over its range then finds nothing in the buffer and
   * the level answers, as {@link #markRemoved} would have written no marker there either. Where a
   * file does overlap, the cold input stays (a plain marker would hide that file's warm blocks
   * from the keys it serves), and the trim and the space bound judge it later. {@link
   * #coldArrivalsLeftOut} counts the files left out.
   */
  public int applyCompaction(int inputLevel, int outputLevel, boolean append, boolean carry,
      Predicate<? super F> warm) {
    for (int level : levelChanges.changedLevels()) {
      if (level == 0 || (append && level == outputLevel)) {
        continue; // L0 has no buffer; the append covers the output level's change
      }
      for (F f : levelChanges.deleted(level)) {
        markRemoved(level, f.smallestUserKey(), f.largestUserKey());
      }
      for (F f : levelChanges.added(level)) {
        markRemoved(level, f.smallestUserKey(), f.largestUserKey());
      }
      // A block compaction's append changes a live table in place (a leftover buffer of a
      // database reopened with the BLOCK style): its old and new ranges get markers.
      for (F updated : levelChanges.footerUpdates(level)) {
        for (F f : base.files(level)) {
          if (f.number() == updated.number()) {
            markRemoved(level, f.smallestUserKey(), f.largestUserKey());
          }
        }
        markRemoved(level, updated.smallestUserKey(), updated.largestUserKey());
      }
    }
    if (!append) {
      return 0;
    }
    // Oldest data first, so that of two overlapping L0 inputs the newer lands in a newer run.
    List<F> inputs = new ArrayList<>(levelChanges.deleted(inputLevel));
    inputs.sort(Comparator.comparingLong(TableFile::largestSequence).thenComparingLong(TableFile::number));
    List<BufferEntry.File<F>> targets = new ArrayList<>();
    List<F> appended = new ArrayList<>(); // inputs and targets; the outputs' scan sources
    List<F> leftOut = new ArrayList<>(); // the cold arrivals
    for (F target : levelChanges.deleted(outputLevel)) {
      if (warm.test(target)) {
        targets.add(new BufferEntry.File<>(target));
        appended.add(target);
      } else {
        leftOut.add(target);
      }
    }
    for (F f : inputs) {
      List<BufferRun<F>> carried = carry && inputLevel >= 1
          ? BufferRun.clip(base.bufferRuns(inputLevel), f.smallestUserKey(), f.largestUserKey())
          : List.of();
      BufferEntry.File<F> entry = new BufferEntry.File<>(f).withCarried(carried);
      // Kept targets are appended after the inputs (so that they land below them): not in the
      // runs yet, they are asked apart.
      if (entry.allFiles().stream().noneMatch(warm)
          && !draftRuns.anyFileOver(outputLevel, f.smallestUserKey(), f.largestUserKey())
          && targets.stream().noneMatch(t -> t.overlaps(f.smallestUserKey(), f.largestUserKey()))) {
        leftOut.add(f);
        continue;
      }
      append(outputLevel, entry);
      appended.add(f);
    }
    for (BufferEntry.File<F> target : targets) {
      appendOldest(outputLevel, target.meta());
    }
    coldArrivalsLeftOut += leftOut.size();
    scanSources = ScanSources.of(levelChanges.added(outputLevel), appended, leftOut);
    return appended.size();
  }

  /**
   * The buffer's part of a level move (a two-phase round's end, {@code LEVEL_MOVE}: every file of
   * {@code from} re-parented, unchanged, to {@code to}, which held none): {@code from}'s buffer
   * becomes {@code to}'s, run for run, and {@code from} is left with none. It answered as {@code
   * from}'s files did, and they are now {@code to}'s files, unchanged, so it answers as {@code to}'s
   * do: dLSM's appending part becoming its deletion part (section IV-B) with its files, and their
   * cached blocks, where they were. What {@code to}'s buffer held goes: a level with no file
   * answers no walk, so it could hide or answer nothing.
   *
   * @throws IllegalArgumentException if {@code to} held a file before the edit
   */
  public void moveLevel(int from, int to) {
    if (!base.files(to).isEmpty()) {
      throw new IllegalArgumentException("a level move needs an empty level L" + to + ": it holds "
          + base.files(to).size() + " files");
    }
    TreeMap<Long, TreeMap<byte[], BufferEntry<F>>> moving = level(from);
    TreeMap<Long, TreeMap<byte[], BufferEntry<F>>> target = level(to);
    target.clear();
    target.putAll(moving);
    moving.clear();
  }

  /**
   * Per output of the merge {@link #applyCompaction} appended (by file number), the appended
   * files a scan may read instead of it ({@link ScanSources}): each output that no input or target
   * the merge left out overlaps.
   */
  public Map<Long, List<F>> scanSources() {
    return scanSources;
  }

  /** The files {@link #applyCompaction} left out as cold arrivals in this draft. */
  public int coldArrivalsLeftOut() {
    return coldArrivalsLeftOut;
  }

  /** Replaces buffer file {@code fileNumber} of run {@code runId} (every part of it) by markers of its parts. */
  public void dropFile(int level, long runId, long fileNumber) {
    TreeMap<byte[], BufferEntry<F>> run = Objects.requireNonNull(level(level).get(runId), "no such buffer run");
    boolean found = false;
    for (BufferEntry<F> e : List.copyOf(run.values())) {
      if (e instanceof BufferEntry.File<F> f && f.meta().number() == fileNumber) {
        run.put(e.smallestUserKey(), new BufferEntry.Removed<>(e.smallestUserKey(), e.largestUserKey()));
        found = true;
      }
    }
    if (!found) {
      throw new IllegalArgumentException("file #" + fileNumber + " is not in buffer run " + runId);
    }
  }

  /**
   * Empties {@code level}'s buffer, every run: a walk then finds nothing and the level answers,
   * which is always right. Returns the file entries dropped.
   */
  public int clearLevel(int level) {
    TreeMap<Long, TreeMap<byte[], BufferEntry<F>>> runs = level(level);
    int files = 0;
    for (TreeMap<byte[], BufferEntry<F>> run : runs.values()) {
      files += (int) run.values().stream().filter(e -> e instanceof BufferEntry.File).count();
    }
    runs.clear();
    return files;
  }

  /**
   * Replaces {@code entry} of run {@code runId} by {@code pieces}: parts of the same file and
   * removed markers that together cover exactly the entry's range ({@link TrimUnits#split}).
   * Every key the entry answered for is then answered by a part (the same file) or ends the walk
   * at a marker. Returns false, changing nothing, when the run no longer holds the entry (a
   * merge or the garbage collection changed it since the trim judged it).
   */
  public boolean split(int level, long runId, BufferEntry.File<F> entry, List<BufferEntry<F>> pieces) {
    TreeMap<byte[], BufferEntry<F>> run = level(level).get(runId);
    if (run == null || !entry.equals(run.get(entry.smallestUserKey()))) {
      return false;
    }
    if (pieces.isEmpty() || !Arrays.equals(pieces.get(0).smallestUserKey(), entry.smallestUserKey())
        || !Arrays.equals(pieces.get(pieces.size() - 1).largestUserKey(), entry.largestUserKey())) {
      throw new IllegalArgumentException("pieces " + pieces + " do not span " + entry);
    }
    run.remove(entry.smallestUserKey());
    for (BufferEntry<F> p : pieces) {
      run.put(p.smallestUserKey(), p);
    }
    return true;
  }

  /**
   * Replaces every top-level entry of levels {@code 0..numLevels-1} by {@code change}'s answer:
   * the same object keeps its place, another takes it (under its own smallest key), null drops
   * it. {@code change} must keep the entries of a run disjoint, e.g. by only narrowing them
   * ({@link PartCompaction#apply} repoints parts at a rewritten file).
   */
  public void replaceEntries(int numLevels, UnaryOperator<BufferEntry<F>> change) {
    draftRuns.replaceEntries(numLevels, change);
  }

  /**
   * Drops, in every touched level, the files no walk can end at: a file hidden by markers of
   * newer runs goes; one that is hidden only where the level has a file becomes a marker of its
   * range (it may hold the tombstone that hides an older file's value in a gap of the level).
   * Then drops markers that no file of an older run overlaps, then empty runs. Returns the
   * files dropped or turned into markers.
   */
  public int collectGarbage() {
    return draftRuns.collectGarbage(this::levelFilesAfterEdit);
  }

  /**
   * The buffer's extra disk space once this draft is applied: the bytes of the files that only
   * buffers hold (in no level of the edited version), each file counted once, carried files
   * included. Levels 0..{@code numLevels - 1}.
   */
  public long extraBytes(int numLevels) {
    return spaceBound.extraBytes(numLevels);
  }

  /**
   * {@link #fitSpace(long, int, BufferHeat)} with no heat known: the oldest runs go first.
   */
  public int fitSpace(long budgetBytes, int numLevels) {
    return spaceBound.fitSpace(budgetBytes, numLevels);
  }

  /**
   * Keeps the buffer within {@code budgetBytes} of extra disk space ({@link #extraBytes}) at the
   * moment this draft installs: while it is over, the entry holding a file no level holds with
   * the least heat ({@link BufferHeat}: the warm fraction of its hottest file at the last trim
   * pass, or as measured since; entries nobody measured count as hottest) is evicted, ties going
   * to the oldest run, then to the smallest key. In its level's oldest run it becomes a plain
   * marker, which hides nothing (no run lies under it) and is collected; in a newer run it
   * becomes a filter marker when its file's filter is known (it then stops only walks for keys
   * the file may hold, as the file did) and a plain marker otherwise. Returns the entries
   * evicted. Call {@link #collectGarbage} after.
   */
  public int fitSpace(long budgetBytes, int numLevels, BufferHeat heat) {
    return spaceBound.fitSpace(budgetBytes, numLevels, heat);
  }

  /**
   * The files of {@code level} once the level changes of the edit are applied: deletions, new
   * files, and footer updates (a block append widens a live file's range in place).
   */
  public List<F> levelFilesAfterEdit(int level) {
    Set<Long> deleted = new HashSet<>();
    levelChanges.deleted(level).forEach(f -> deleted.add(f.number()));
    Map<Long, F> updated = new HashMap<>();
    levelChanges.footerUpdates(level).forEach(f -> updated.put(f.number(), f));
    List<F> out = new ArrayList<>();
    for (F f : base.files(level)) {
      if (!deleted.contains(f.number())) {
        out.add(updated.getOrDefault(f.number(), f));
      }
    }
    out.addAll(levelChanges.added(level));
    return out;
  }

  /** Writes the difference between the base and this draft into {@code edit}. */
  public void writeTo(BufferEditSink<F> edit) {
    draftRuns.writeDiffTo(edit);
  }

  /** Every file the draft's buffers hold, carried files included, each once. */
  public Set<F> files(int numLevels) {
    return draftRuns.files(numLevels);
  }

  /** The draft's runs of {@code level}, newest first (for tests and decisions). */
  public List<BufferRun<F>> runs(int level) {
    return draftRuns.runs(level);
  }
}

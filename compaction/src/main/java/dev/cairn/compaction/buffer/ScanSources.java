package dev.cairn.compaction.buffer;

import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import dev.cairn.model.TableFile;
import dev.cairn.model.UserKeyOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Range queries through the compaction buffer: LSbM's Algorithm 4, made exact for Cairn's buffer
 * (docs/compaction.md, "Range queries through the buffer").
 *
 * <p>The paper serves a range from the buffer files overlapping it when no removed marker
 * intervenes. Cairn's buffer invariant is weaker than that needs: a buffer file answers for the
 * keys it holds, not for its whole range, and a level's keys may be in no buffer file at all (a
 * trivial move, a cold arrival left out, data that was in the level before the buffer began). So a
 * scan may read buffer files instead of a level file only where they provably hold everything the
 * level file holds. One case gives that proof: a merge into the level that appended every one of
 * its inputs and targets overlapping an output. The output is the merge of exactly those files,
 * so over its key range they (its <em>sources</em>) hold every entry the output holds, and besides
 * only versions the merge dropped: versions no reader can see (the merge keeps the newest of each
 * snapshot stripe), tombstones with nothing older below them (which read as absent either
 * way) and merge operands it combined (which a reader combines alike). A scan that merges the
 * sources, clipped to the user keys of the output's range, therefore reads what the output reads.
 *
 * <p>The proof is about file contents, which never change (buffer files are never appended to),
 * so it holds as long as the sources exist; {@link #servable} asks the scan's pinned version
 * whether they do, whole over the output's range, in the level's buffer (which keeps them on
 * disk). Trimmed parts, evicted or shadowed files and markers make the scan read the level's
 * file, as before. The record is soft state: lost on reopen, when the cache is cold anyway.
 */
public final class ScanSources {
  private ScanSources() {}

  /**
   * The sources of the outputs of a buffered merge: per output (by file number, in the order
   * given) the appended files that overlap its user-key range, for each output that no file the
   * merge left out (a cold arrival) overlaps. Only the files overlapping an output went into it,
   * so a left-out file outside its range takes nothing from its proof.
   *
   * @param outputs the files the merge added to its output level
   * @param appended the inputs and targets the merge appended to the buffer
   * @param leftOut the inputs and targets it did not append
   */
  public static <F extends TableFile> Map<Long, List<F>> of(List<F> outputs, List<F> appended, List<F> leftOut) {
    Map<Long, List<F>> out = new LinkedHashMap<>();
    for (F o : outputs) {
      if (leftOut.stream().anyMatch(f -> overlaps(f, o.smallestUserKey(), o.largestUserKey()))) {
        continue;
      }
      List<F> sources = new ArrayList<>();
      for (F a : appended) {
        if (overlaps(a, o.smallestUserKey(), o.largestUserKey())) {
          sources.add(a);
        }
      }
      out.put(o.number(), List.copyOf(sources));
    }
    return out;
  }

  /**
   * Whether a scan may read {@code sources} instead of {@code levelFile}: every source is a file
   * entry of {@code runs} (the level's buffer, top level; any run) whose range covers the part of
   * the source that overlaps the level file. An entry is only ever a whole file or a part the
   * trim kept; a part that does not cover that overlap means the trim turned some of it into a
   * marker, and the level file is read instead. No sources (never expected of an output) means
   * no.
   */
  public static <F extends TableFile> boolean servable(List<BufferRun<F>> runs, F levelFile, List<F> sources) {
    if (sources.isEmpty()) {
      return false;
    }
    for (F s : sources) {
      byte[] lo = UserKeyOrder.max(s.smallestUserKey(), levelFile.smallestUserKey());
      byte[] hi = UserKeyOrder.min(s.largestUserKey(), levelFile.largestUserKey());
      if (UserKeyOrder.compare(lo, hi) > 0 || !heldWhole(runs, s, lo, hi)) {
        return false;
      }
    }
    return true;
  }

  /** Whether some run holds an entry of {@code file} covering [{@code lo}, {@code hi}]. */
  private static <F extends TableFile> boolean heldWhole(List<BufferRun<F>> runs, F file, byte[] lo, byte[] hi) {
    for (BufferRun<F> run : runs) {
      if (run.covering(lo) instanceof BufferEntry.File<F> e && e.meta().number() == file.number()
          && UserKeyOrder.compare(e.largestUserKey(), hi) >= 0) {
        return true;
      }
    }
    return false;
  }

  private static boolean overlaps(TableFile f, byte[] lo, byte[] hi) {
    return UserKeyOrder.compare(f.smallestUserKey(), hi) <= 0 && UserKeyOrder.compare(f.largestUserKey(), lo) >= 0;
  }
}

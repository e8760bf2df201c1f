package dev.cairn.compaction.buffer;

import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import dev.cairn.model.BufferedLevels;
import dev.cairn.model.KeyFilter;
import dev.cairn.model.KeyRanges;
import dev.cairn.model.TableFile;
import dev.cairn.model.UserKeyOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * LSbM's trim (Algorithm 2) at the granularity of trim units, as a pure plan: for every buffer
 * file the schedule lets a pass judge ({@link TrimSchedule}), the pieces that replace it, from
 * its blocks' presence in the cache ({@link TrimUnits#split}). The engine gathers the block
 * layouts (index reads and cache lookups, outside its mutex) through {@code layouts}, then
 * applies the planned splits to a {@link BufferDraft} under the mutex, skipping any whose entry
 * changed meanwhile.
 *
 * <p>A cold run of a file with a filter becomes a filter marker ({@link
 * BufferEntry.Removed#filter}): it stops only the walks for keys the file may hold, so older
 * cached data under it keeps serving the rest and no disk space is kept for it. A cold run of a
 * file without a filter becomes a plain marker, which would stop every walk over its range and
 * hide the cached blocks of older runs there: it is kept when it lies over such blocks and
 * {@code keepColdRuns} ({@link ColdRunBudget}). A file that carries a buffer is judged through it: the carried files are
 * judged (recursively) and pruned, and while any is left the file stays whole, however cold its
 * own blocks (the carried files serve its reads; the file is where their markers send a walk).
 * Once none is left, the file is judged by its own blocks like any other.
 *
 * @param <F> the engine's table file
 */
public final class TrimPlanner<F extends TableFile> {
  /**
   * One file's data blocks in key order, as the trim judges them: each block's separator user
   * key, its size, and whether it is "cached" in this package's sense (the engine answers with
   * {@code BlockCache.isWarm}: in the cache and read within the last cache turnover, what an LRU
   * cache would hold; docs/compaction.md, "Trim"); and the file's filter (null when it
   * has none), which its cold parts leave behind as filter markers.
   */
  public record BlockLayout(byte[][] upperUserKeys, long[] blockBytes, boolean[] cached, KeyFilter filter) {
    public BlockLayout {
      if (blockBytes.length != upperUserKeys.length || cached.length != upperUserKeys.length) {
        throw new IllegalArgumentException("block arrays differ in length");
      }
    }

    /** A file without a filter: its cold parts become plain markers. */
    public BlockLayout(byte[][] upperUserKeys, long[] blockBytes, boolean[] cached) {
      this(upperUserKeys, blockBytes, cached, null);
    }
  }

  /** A planned split: {@code entry} of run {@code runId} becomes {@code pieces}, removing {@code removedRuns} cold runs. */
  public record Split<F extends TableFile>(int level, long runId, BufferEntry.File<F> entry,
      List<BufferEntry<F>> pieces, int removedRuns) {}

  private record Judged<F extends TableFile>(List<BufferEntry<F>> pieces, int removedRuns) {}

  private final long unitBytes;
  private final double cachedFraction;
  private final boolean keepColdRuns;
  private final Function<F, BlockLayout> layouts;
  /** Layouts by file number, each gathered once per pass. */
  private final Map<Long, BlockLayout> layoutByFile = new HashMap<>();

  /**
   * @param layouts a file's block layout, or null when it cannot be read now (the file is then
   *     kept whole, and the next pass tries again)
   */
  public TrimPlanner(long unitBytes, double cachedFraction, boolean keepColdRuns, Function<F, BlockLayout> layouts) {
    this.unitBytes = unitBytes;
    this.cachedFraction = cachedFraction;
    this.keepColdRuns = keepColdRuns;
    this.layouts = layouts;
  }

  /** The splits of one pass over {@code levels} 1..{@code numLevels - 1}, {@code schedules} per level. */
  public List<Split<F>> plan(BufferedLevels<F> levels, int numLevels, List<TrimSchedule> schedules) {
    List<Split<F>> planned = new ArrayList<>();
    for (int level = 1; level < numLevels; level++) {
      List<BufferRun<F>> runs = levels.bufferRuns(level);
      TrimSchedule schedule = schedules.get(level);
      Set<Long> judged = schedule.judgeableRuns(runs.stream().map(BufferRun::id).toList());
      // Cached data of the runs older than the one judged; left empty over the space budget.
      KeyRanges below = new KeyRanges();
      for (int i = runs.size() - 1; i >= 0; i--) {
        BufferRun<F> run = runs.get(i);
        if (judged.contains(run.id())) {
          for (BufferEntry<F> e : run.entries()) {
            if (e instanceof BufferEntry.File<F> f && schedule.judgesFile(f.meta().number())) {
              Judged<F> j = judge(f, below);
              if (!j.pieces().equals(List.of(f))) {
                planned.add(new Split<>(level, run.id(), f, j.pieces(), j.removedRuns()));
              }
            }
          }
        }
        if (keepColdRuns && i > 0) { // the newest run lies under no run
          addCachedRanges(run.entries(), below);
        }
      }
    }
    return planned;
  }

  private Judged<F> judge(BufferEntry.File<F> f, KeyRanges below) {
    int removedRuns = 0;
    if (!f.carried().isEmpty()) {
      List<BufferRun<F>> judgedRuns = new ArrayList<>(f.carried());
      KeyRanges carriedBelow = new KeyRanges(); // a marker in a carried run sends walks to f, not further
      for (int i = judgedRuns.size() - 1; i >= 0; i--) {
        BufferRun<F> run = f.carried().get(i);
        List<BufferEntry<F>> entries = new ArrayList<>();
        for (BufferEntry<F> e : run.entries()) {
          if (e instanceof BufferEntry.File<F> c) {
            Judged<F> j = judge(c, carriedBelow);
            entries.addAll(j.pieces());
            removedRuns += j.removedRuns();
          } else {
            entries.add(e);
          }
        }
        judgedRuns.set(i, new BufferRun<>(run.id(), entries));
        if (keepColdRuns) {
          addCachedRanges(run.entries(), carriedBelow);
        }
      }
      List<BufferRun<F>> kept = BufferRun.prune(judgedRuns);
      if (!kept.isEmpty()) {
        return new Judged<>(List.of(f.withCarried(kept)), removedRuns);
      }
      f = f.withCarried(List.of());
    }
    BlockLayout layout = layout(f.meta());
    List<BufferEntry<F>> pieces;
    if (layout == null) {
      pieces = List.of(f);
    } else if (layout.filter() != null) {
      // A cold part leaves the file's filter: its marker stops only the walks for keys the file
      // may hold, so the older cached data under it keeps serving the rest at no disk cost.
      pieces = TrimUnits.split(f, layout.upperUserKeys(), layout.blockBytes(), layout.cached(), unitBytes,
          cachedFraction, (lo, hi) -> false, layout.filter());
    } else {
      pieces = TrimUnits.split(f, layout.upperUserKeys(), layout.blockBytes(), layout.cached(), unitBytes,
          cachedFraction, below::overlaps);
    }
    removedRuns += (int) pieces.stream().filter(e -> e instanceof BufferEntry.Removed).count();
    return new Judged<>(pieces, removedRuns);
  }

  /**
   * Adds to {@code out} the key ranges of the cached blocks of {@code entries}' files (within each
   * entry's range), those of their carried buffers included: where a newer run's marker would
   * stop walks that cached data serves.
   */
  private void addCachedRanges(List<BufferEntry<F>> entries, KeyRanges out) {
    for (BufferEntry<F> e : entries) {
      if (!(e instanceof BufferEntry.File<F> f)) {
        continue;
      }
      BlockLayout layout = layout(f.meta());
      if (layout != null) {
        for (int b = 0; b < layout.cached().length; b++) {
          if (layout.cached()[b]) {
            // Block b holds user keys in [upper(b-1), upper(b)] (a key may straddle the boundary).
            byte[] lo = b == 0
                ? f.smallestUserKey()
                : UserKeyOrder.max(f.smallestUserKey(), layout.upperUserKeys()[b - 1]);
            byte[] hi = UserKeyOrder.min(f.largestUserKey(), layout.upperUserKeys()[b]);
            out.add(lo, hi);
          }
        }
      }
      f.carried().forEach(t -> addCachedRanges(t.entries(), out));
    }
  }

  /**
   * What this pass saw of each file whose blocks it looked at (after {@link #plan}): the fraction
   * of its data blocks in the cache, and its filter. The space bound evicts the coolest first.
   */
  public BufferHeat heat() {
    Map<Long, Double> heat = new HashMap<>();
    Map<Long, KeyFilter> filters = new HashMap<>();
    layoutByFile.forEach((number, layout) -> {
      if (layout == null) {
        return;
      }
      int cached = 0;
      for (boolean c : layout.cached()) {
        cached += c ? 1 : 0;
      }
      heat.put(number, layout.cached().length == 0 ? 0.0 : (double) cached / layout.cached().length);
      if (layout.filter() != null) {
        filters.put(number, layout.filter());
      }
    });
    return new BufferHeat(heat, filters);
  }

  /** A file that could not be read is asked for again the next time it comes up in the pass. */
  private BlockLayout layout(F file) {
    return layoutByFile.computeIfAbsent(file.number(), n -> layouts.apply(file));
  }
}

package dev.cairn.compaction.buffer;

import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import dev.cairn.model.BufferedLevels;
import dev.cairn.model.TableFile;
import dev.cairn.model.UserKeyOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Which buffer files to rewrite as their hot parts alone (docs/compaction.md, "Part
 * compaction"), as a pure plan. The trim keeps a file's warm block runs as parts and drops the
 * rest as markers, but the file stays on disk whole while any part is left: a 2 MiB file with a
 * tenth of its blocks hot costs the space bound ten times what it serves, and the bound then
 * evicts hot data to make room. A file whose parts keep at most {@code maxKeptFraction} of its
 * data bytes is rewritten as a new table holding only the blocks its parts need, byte for byte,
 * and its parts then name the new file; the engine moves the warm blocks' cache entries along.
 *
 * <p>Only files that nothing needs whole qualify: held by no level, every entry naming it (at any
 * depth: carried buffers copy entries) a part with no carried buffer of its own. Then those
 * parts are the file's only readers, and the new file answers every key of every part exactly
 * as the old one did (it holds the same blocks for those keys).
 *
 * @param <F> the engine's table file
 */
public final class PartCompaction {
  private PartCompaction() {}

  /** Data blocks {@code [first, end)} of a file, in its index order. */
  public record BlockRange(int first, int end) {
    public BlockRange {
      if (first < 0 || end <= first) {
        throw new IllegalArgumentException("empty or negative block range [" + first + ", " + end + ")");
      }
    }
  }

  /**
   * One file to rewrite.
   *
   * @param parts every entry naming {@code file}, at any depth (carried buffers included), in
   *     the order met
   * @param blocks the data blocks the parts need, ascending and disjoint, before any extension
   *     for a user key whose versions straddle a range's end (the writer adds those)
   * @param keptBytes the bytes of {@code blocks}
   * @param dataBytes the bytes of all the file's data blocks
   */
  public record Plan<F extends TableFile>(F file, List<BufferEntry.File<F>> parts, List<BlockRange> blocks,
      long keptBytes, long dataBytes) {
    public Plan {
      parts = List.copyOf(parts);
      blocks = List.copyOf(blocks);
    }
  }

  /**
   * The files of {@code levels} worth rewriting, the largest saving first: those no level holds,
   * named only by parts with no carried buffer (at any depth), whose parts keep at most {@code
   * maxKeptFraction} of their data bytes.
   *
   * @param layouts a file's block layout (separators and sizes are what count here), or null
   *     when it cannot be read now: the file is left for a later pass
   */
  public static <F extends TableFile> List<Plan<F>> plan(BufferedLevels<F> levels, int numLevels,
      Function<F, TrimPlanner.BlockLayout> layouts, double maxKeptFraction) {
    Set<Long> inLevels = new HashSet<>();
    Map<Long, List<BufferEntry.File<F>>> references = new LinkedHashMap<>();
    for (int level = 0; level < numLevels; level++) {
      levels.files(level).forEach(f -> inLevels.add(f.number()));
      collect(levels.bufferRuns(level), references);
    }
    List<Plan<F>> out = new ArrayList<>();
    for (List<BufferEntry.File<F>> parts : references.values()) {
      F file = parts.get(0).meta();
      if (inLevels.contains(file.number()) || parts.stream().anyMatch(p -> !p.carried().isEmpty() || p.whole())) {
        continue;
      }
      TrimPlanner.BlockLayout layout = layouts.apply(file);
      if (layout == null) {
        continue;
      }
      List<BlockRange> blocks = blocksOf(parts, layout.upperUserKeys());
      long kept = 0;
      for (BlockRange r : blocks) {
        for (int b = r.first(); b < r.end(); b++) {
          kept += layout.blockBytes()[b];
        }
      }
      long all = 0;
      for (long bytes : layout.blockBytes()) {
        all += bytes;
      }
      if (!blocks.isEmpty() && kept <= maxKeptFraction * all) {
        out.add(new Plan<>(file, parts, blocks, kept, all));
      }
    }
    out.sort((a, b) -> Long.compare(b.dataBytes() - b.keptBytes(), a.dataBytes() - a.keptBytes()));
    return out;
  }

  /**
   * The data blocks that hold the keys of {@code parts} (key order, disjoint), from the index
   * alone: block {@code i} holds user keys in {@code [upper(i-1), upper(i)]} (the lower bound
   * only for a key straddling the boundary, which belongs to block {@code i-1}'s range), so it
   * serves part {@code [lo, hi]} when {@code upper(i) >= lo} and {@code upper(i-1) < hi}. A key
   * equal to a range's last separator may also have versions in the next block; the writer,
   * which reads the blocks, adds such a block.
   */
  public static <F extends TableFile> List<BlockRange> blocksOf(List<BufferEntry.File<F>> parts, byte[][] upper) {
    int n = upper.length;
    boolean[] needed = new boolean[n];
    for (BufferEntry.File<F> p : parts) {
      for (int i = 0; i < n; i++) {
        boolean reachesLo = UserKeyOrder.compare(upper[i], p.smallestUserKey()) >= 0;
        boolean startsBelowHi = i == 0 || UserKeyOrder.compare(upper[i - 1], p.largestUserKey()) < 0;
        if (reachesLo && startsBelowHi) {
          needed[i] = true;
        }
      }
    }
    List<BlockRange> out = new ArrayList<>();
    for (int i = 0; i < n; ) {
      if (!needed[i]) {
        i++;
        continue;
      }
      int start = i;
      while (i < n && needed[i]) {
        i++;
      }
      out.add(new BlockRange(start, i));
    }
    return out;
  }

  /**
   * Points every part of {@code plan}'s file in {@code draft}, at any depth, at {@code
   * rewritten} (its rewrite as those parts' blocks). Returns false, changing nothing, when the
   * buffer no longer matches the plan: a level holds the file again, or an entry names it that
   * the plan did not see (its blocks may not have been copied). Parts the plan saw that are gone
   * since are fine.
   */
  public static <F extends TableFile> boolean apply(BufferDraft<F> draft, Plan<F> plan, F rewritten, int numLevels) {
    long from = plan.file().number();
    Set<BufferEntry.File<F>> planned = new HashSet<>(plan.parts());
    for (int level = 0; level < numLevels; level++) {
      if (draft.levelFilesAfterEdit(level).stream().anyMatch(f -> f.number() == from)) {
        return false;
      }
      Map<Long, List<BufferEntry.File<F>>> references = new LinkedHashMap<>();
      collect(draft.runs(level), references);
      if (!planned.containsAll(references.getOrDefault(from, List.of()))) {
        return false;
      }
    }
    draft.replaceEntries(numLevels, e -> repointAll(e, from, rewritten));
    return true;
  }

  /**
   * {@code part} of the rewritten file's predecessor naming {@code rewritten} instead, clipped to
   * its user keys (a part's bounds are index separators, which may lie outside the keys the kept
   * blocks hold: no key lies between, so the clipped part answers the same); null when no key of
   * the new file is left in it: the old file held none of its keys either, so a walk passed it,
   * as it passes the gap.
   */
  static <F extends TableFile> BufferEntry.File<F> repoint(BufferEntry.File<F> part, F rewritten) {
    byte[] lo = UserKeyOrder.max(part.smallestUserKey(), rewritten.smallestUserKey());
    byte[] hi = UserKeyOrder.min(part.largestUserKey(), rewritten.largestUserKey());
    return UserKeyOrder.compare(lo, hi) <= 0 ? new BufferEntry.File<>(rewritten, lo, hi) : null;
  }

  /** Every file entry of {@code runs}, at any depth, by file number. */
  private static <F extends TableFile> void collect(List<BufferRun<F>> runs, Map<Long, List<BufferEntry.File<F>>> out) {
    for (BufferRun<F> run : runs) {
      for (BufferEntry<F> e : run.entries()) {
        if (e instanceof BufferEntry.File<F> f) {
          out.computeIfAbsent(f.meta().number(), n -> new ArrayList<>()).add(f);
          collect(f.carried(), out);
        }
      }
    }
  }

  /**
   * {@code e} with every part of file {@code from} in it, at any depth, naming {@code to}
   * instead ({@link #repoint}); null when {@code e} is such a part left with no key of {@code
   * to}; {@code e} itself when nothing in it names {@code from}, so that the draft leaves it be.
   */
  static <F extends TableFile> BufferEntry<F> repointAll(BufferEntry<F> e, long from, F to) {
    if (!(e instanceof BufferEntry.File<F> f)) {
      return e;
    }
    if (f.meta().number() == from) {
      return repoint(f, to); // a part of from carries nothing (the plan's rule)
    }
    boolean changed = false;
    List<BufferRun<F>> carried = new ArrayList<>();
    for (BufferRun<F> run : f.carried()) {
      List<BufferEntry<F>> entries = new ArrayList<>();
      for (BufferEntry<F> c : run.entries()) {
        BufferEntry<F> moved = repointAll(c, from, to);
        changed |= moved != c;
        if (moved != null) {
          entries.add(moved);
        }
      }
      carried.add(new BufferRun<>(run.id(), entries));
    }
    return changed ? f.withCarried(carried) : e;
  }
}

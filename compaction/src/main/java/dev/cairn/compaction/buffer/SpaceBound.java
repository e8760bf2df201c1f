package dev.cairn.compaction.buffer;

import dev.cairn.model.BufferEntry;
import dev.cairn.model.BufferRun;
import dev.cairn.model.TableFile;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * The buffer's space bound over a {@link BufferDraft}: the extra disk space the buffer holds once
 * the draft installs (the bytes of files no level holds), and the victim search that evicts the
 * coolest entries holding such files until it fits a budget ({@link BufferDraft#fitSpace(long,
 * int, BufferHeat)}). It changes the draft's runs in place.
 *
 * <p>Pure and unsynchronized, like the draft: no I/O, no engine state; the engine builds the draft
 * under its mutex.
 */
final class SpaceBound<F extends TableFile> {
  private final DraftRuns<F> runs;
  /** The files of a level once the draft's level changes are applied. */
  private final IntFunction<List<F>> levelFilesAfterEdit;

  SpaceBound(DraftRuns<F> runs, IntFunction<List<F>> levelFilesAfterEdit) {
    this.runs = runs;
    this.levelFilesAfterEdit = levelFilesAfterEdit;
  }

  /** {@link BufferDraft#extraBytes}. */
  long extraBytes(int numLevels) {
    Set<Long> inLevels = fileNumbersInLevels(numLevels);
    Set<Long> counted = new HashSet<>();
    long bytes = 0;
    for (int level = 0; level < numLevels; level++) {
      for (BufferRun<F> run : runs.current(level)) {
        for (F f : run.allFiles()) {
          if (!inLevels.contains(f.number()) && counted.add(f.number())) {
            bytes += f.totalBytes();
          }
        }
      }
    }
    return bytes;
  }

  /** {@link BufferDraft#fitSpace(long, int)}: with no heat known, the oldest runs go first. */
  int fitSpace(long budgetBytes, int numLevels) {
    return fitSpace(budgetBytes, numLevels, BufferHeat.NONE);
  }

  /** {@link BufferDraft#fitSpace(long, int, BufferHeat)}. */
  int fitSpace(long budgetBytes, int numLevels, BufferHeat heat) {
    if (budgetBytes < 0) {
      throw new IllegalArgumentException("negative buffer space budget: " + budgetBytes);
    }
    int evicted = 0;
    Set<Long> inLevels = fileNumbersInLevels(numLevels);
    while (extraBytes(numLevels) > budgetBytes) {
      Victim<F> v = coolestHoldingExtra(numLevels, inLevels, heat);
      if (v == null) {
        break; // unreachable while extra > 0; a guard against a loop
      }
      BufferEntry<F> marker = v.oldestRun || heat.filter(v.entry.meta()) == null
          ? new BufferEntry.Removed<>(v.entry.smallestUserKey(), v.entry.largestUserKey())
          : new BufferEntry.Removed<>(v.entry.smallestUserKey(), v.entry.largestUserKey(), heat.filter(v.entry.meta()));
      v.run.put(v.entry.smallestUserKey(), marker);
      evicted++;
    }
    return evicted;
  }

  private record Victim<F extends TableFile>(TreeMap<byte[], BufferEntry<F>> run, BufferEntry.File<F> entry,
      boolean oldestRun, double heat) {}

  private Victim<F> coolestHoldingExtra(int numLevels, Set<Long> inLevels, BufferHeat heat) {
    Victim<F> best = null;
    for (int level = 0; level < numLevels; level++) {
      if (runs.current(level).isEmpty()) {
        continue;
      }
      TreeMap<Long, TreeMap<byte[], BufferEntry<F>>> levelRuns = runs.level(level);
      boolean oldest = true;
      for (TreeMap<byte[], BufferEntry<F>> run : levelRuns.descendingMap().values()) { // oldest first
        for (BufferEntry<F> e : run.values()) {
          if (e instanceof BufferEntry.File<F> f && holdsExtra(f, inLevels)) {
            double h = f.allFiles().stream().mapToDouble(heat::heat).max().orElse(0);
            if (best == null || h < best.heat) { // strictly cooler: ties keep the older run, smaller key
              best = new Victim<>(run, f, oldest, h);
            }
          }
        }
        oldest = false;
      }
    }
    return best;
  }

  private static <F extends TableFile> boolean holdsExtra(BufferEntry.File<F> f, Set<Long> inLevels) {
    return f.allFiles().stream().anyMatch(g -> !inLevels.contains(g.number()));
  }

  private Set<Long> fileNumbersInLevels(int numLevels) {
    Set<Long> out = new HashSet<>();
    for (int level = 0; level < numLevels; level++) {
      levelFilesAfterEdit.apply(level).forEach(f -> out.add(f.number()));
    }
    return out;
  }
}

package dev.cairn.compaction;

import dev.cairn.model.FileDescriptor;
import dev.cairn.model.KeyRange;
import dev.cairn.model.LsmShape;
import dev.cairn.model.UserKeyOrder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What the compactions already running hold, so that a picker plans only compactions that may
 * run alongside them. Immutable.
 *
 * <p>A running plan holds three things until it installs:
 *
 * <ul>
 *   <li>its <b>files</b> (inputs and targets), which it reads and will delete;
 *   <li>a <b>read range</b>: its {@link CompactionPlan#inputRange() input range} in its input
 *       level. Nothing may be written there: the plan was built on the promise that its inputs
 *       are every file of that level in that range;
 *   <li>a <b>write range</b>: its whole {@link CompactionPlan#keyRange() key range} in its output
 *       level, where its outputs will land. The range may cover key gaps that hold no file today,
 *       which is why file ids alone cannot describe it (RocksDB's {@code
 *       RangeOverlapWithCompaction} checks the same range).
 * </ul>
 *
 * A new plan is {@linkplain #allows allowed} when it names no held file, writes into no held
 * range of its output level, and reads no range of its input level that another plan writes.
 * Ranges, unlike file sets, stay meaningful when other compactions install between two picks.
 */
public final class RunningCompactions {
  private static final RunningCompactions NONE = new RunningCompactions(Set.of(), List.of());

  /** A key range of one level that a running compaction reads or writes. */
  private record Claim(int level, KeyRange range, boolean write) {}

  private final Set<Long> fileIds;
  private final List<Claim> claims;

  private RunningCompactions(Set<Long> fileIds, List<Claim> claims) {
    this.fileIds = Set.copyOf(fileIds);
    this.claims = List.copyOf(claims);
  }

  /** Nothing running. */
  public static RunningCompactions none() {
    return NONE;
  }

  /** The given plans running. */
  public static RunningCompactions of(Collection<CompactionPlan> plans) {
    RunningCompactions result = NONE;
    for (CompactionPlan plan : plans) {
      result = result.plus(plan);
    }
    return result;
  }

  /**
   * A conservative reading of a bare set of busy file ids, for callers that do not keep their
   * plans. Sound while every id belongs to a plan this picker made: such a plan's ranges have
   * stayed free of new files since it was picked, so its inputs are still a contiguous run of
   * busy files and its targets still all the files below them. Ids held for any other reason (an
   * ingestion, a host's own task) may hide a write range; pass plans with {@link #of} instead,
   * which also refuses less.
   *
   * <p>Derived claims, each a superset of what the plans behind the ids hold:
   *
   * <ul>
   *   <li>L0: one L0 compaction at a time, so the span of the busy L0 files is its input range,
   *       written in L1.
   *   <li>Level {@code n >= 1}: a plan's inputs are a contiguous slice of the level, so each
   *       maximal key-ordered run of busy files is read over its span. A slice of the run can be
   *       a plan's inputs only if every file of {@code n + 1} overlapping it is busy too (its
   *       targets); the span of each maximal such slice is written in {@code n + 1}.
   * </ul>
   */
  public static RunningCompactions fromBusyFiles(LsmShape shape, Set<Long> busyFileIds) {
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(busyFileIds, "busyFileIds");
    List<Claim> claims = new ArrayList<>();
    List<FileDescriptor> busyL0 = new ArrayList<>();
    for (FileDescriptor f : shape.files(0)) {
      if (busyFileIds.contains(f.id())) {
        busyL0.add(f);
      }
    }
    if (!busyL0.isEmpty() && shape.numLevels() > 1) {
      KeyRange span = KeyRange.spanning(busyL0);
      claims.add(new Claim(0, span, false));
      claims.add(new Claim(1, span, true));
    }
    for (int level = 1; level < shape.numLevels(); level++) {
      for (List<FileDescriptor> run : busyRuns(shape.files(level), busyFileIds)) {
        claims.add(new Claim(level, KeyRange.spanning(run), false));
        if (level + 1 < shape.numLevels()) {
          for (KeyRange span : possibleInputSpans(shape, level + 1, run, busyFileIds)) {
            claims.add(new Claim(level + 1, span, true));
          }
        }
      }
    }
    return new RunningCompactions(busyFileIds, claims);
  }

  /** This state with {@code plan} running too. */
  public RunningCompactions plus(CompactionPlan plan) {
    Set<Long> ids = new HashSet<>(fileIds);
    ids.addAll(plan.fileIds());
    List<Claim> more = new ArrayList<>(claims);
    more.add(new Claim(plan.inputLevel(), plan.inputRange(), false));
    more.add(new Claim(plan.outputLevel(), plan.keyRange(), true));
    return new RunningCompactions(ids, more);
  }

  /** Ids of the files running compactions read or replace. */
  public Set<Long> fileIds() {
    return fileIds;
  }

  public boolean isBusy(long fileId) {
    return fileIds.contains(fileId);
  }

  public boolean anyBusy(Collection<FileDescriptor> files) {
    for (FileDescriptor f : files) {
      if (fileIds.contains(f.id())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a compaction of {@code inputs} of {@code inputLevel} with {@code targets} of the
   * next level may run alongside the running ones: it names no busy file, nothing running writes
   * into its input range, and it writes (over inputs plus targets) into no range of the output
   * level that a running compaction reads or writes.
   */
  public boolean allows(
      int inputLevel, List<FileDescriptor> inputs, List<FileDescriptor> targets) {
    if (inputs.isEmpty()) {
      throw new IllegalArgumentException("a compaction needs inputs");
    }
    if (anyBusy(inputs) || anyBusy(targets)) {
      return false;
    }
    KeyRange inputRange = KeyRange.spanning(inputs);
    KeyRange writeRange =
        targets.isEmpty() ? inputRange : inputRange.span(KeyRange.spanning(targets));
    for (Claim claim : claims) {
      boolean readConflict =
          claim.write() && claim.level() == inputLevel && claim.range().overlaps(inputRange);
      boolean writeConflict =
          claim.level() == inputLevel + 1 && claim.range().overlaps(writeRange);
      if (readConflict || writeConflict) {
        return false;
      }
    }
    return true;
  }

  /** {@link #allows(int, List, List)} for a whole plan. */
  public boolean allows(CompactionPlan plan) {
    return allows(plan.inputLevel(), plan.inputs(), plan.targets());
  }

  /** The maximal runs of consecutive busy files of a sorted run, in key order. */
  private static List<List<FileDescriptor>> busyRuns(List<FileDescriptor> files, Set<Long> busy) {
    List<FileDescriptor> ordered = new ArrayList<>(files);
    ordered.sort(Comparator.comparing(FileDescriptor::smallestKey, UserKeyOrder.COMPARATOR));
    List<List<FileDescriptor>> runs = new ArrayList<>();
    List<FileDescriptor> run = new ArrayList<>();
    for (FileDescriptor f : ordered) {
      if (busy.contains(f.id())) {
        run.add(f);
      } else if (!run.isEmpty()) {
        runs.add(run);
        run = new ArrayList<>();
      }
    }
    if (!run.isEmpty()) {
      runs.add(run);
    }
    return runs;
  }

  /**
   * Spans of the maximal slices of {@code run} whose overlapping files in {@code below} are all
   * busy: the slices that could be a running plan's inputs. Two pointers: a slice of a qualifying
   * slice qualifies, so each start's furthest end never moves back.
   */
  private static List<KeyRange> possibleInputSpans(
      LsmShape shape, int below, List<FileDescriptor> run, Set<Long> busy) {
    List<KeyRange> spans = new ArrayList<>();
    int end = -1; // [i, end] is known to qualify while end >= i
    for (int i = 0; i < run.size(); i++) {
      if (end < i && !allBelowBusy(shape, below, run.subList(i, i + 1), busy)) {
        continue;
      }
      int j = Math.max(i, end);
      while (j + 1 < run.size() && allBelowBusy(shape, below, run.subList(i, j + 2), busy)) {
        j++;
      }
      if (j > end) {
        spans.add(KeyRange.spanning(run.subList(i, j + 1)));
        end = j;
      }
    }
    return spans;
  }

  private static boolean allBelowBusy(
      LsmShape shape, int below, List<FileDescriptor> slice, Set<Long> busy) {
    KeyRange span = KeyRange.spanning(slice);
    for (FileDescriptor f : shape.overlapping(below, span.smallest(), span.largest())) {
      if (!busy.contains(f.id())) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return "RunningCompactions{files=" + fileIds + ", claims=" + claims + "}";
  }
}

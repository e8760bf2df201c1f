package dev.cairn.compaction.dlc;

import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.OutputLimits;
import dev.cairn.compaction.RunningCompactions;
import dev.cairn.compaction.leveled.LeveledCompactionPicker;
import dev.cairn.compaction.model.FileDescriptor;
import dev.cairn.compaction.model.LevelShape;
import dev.cairn.compaction.model.LsmShape;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * DLC's compaction scheduling (sections 4 and 5) on top of the leveled picker: given the load
 * class, the shape and the running compactions, which compaction to start next, if any.
 *
 * <ul>
 *   <li><b>Low load</b>: the picker decides, exactly as without DLC; delayed L0 compactions
 *       resume here.
 *   <li><b>High load</b>: L0→L1 is held back (and L0→L0 too under {@code DELAY_FULL}); flushes go
 *       on. At most one compaction below L0 runs at a time.
 *   <li><b>Bursty compaction</b> (section 5), under high load only: when the freshly flushed L0
 *       files reach {@code partTriggerFreshFiles} (or bytes), "resume part" merges them into one
 *       L0 table ({@link CompactionKind#L0_TO_L0}); a table made that way is never merged again
 *       by a part run. When L0 reaches {@code fullTriggerL0Files} (or bytes), or a part run is
 *       due after {@code partRunsBeforeFull} of them, "resume full" compacts all of L0 into L1.
 * </ul>
 *
 * <p>Which L0 tables a part run may merge: the <em>newest contiguous run</em> of fresh tables.
 * L0 is searched newest first and its tables' sequence ranges are disjoint (each is one memtable
 * or a merge of adjacent ones); merging only adjacent-by-age tables keeps that true, so the merged
 * table takes exactly its inputs' place in the newest-first order.
 *
 * <p>Stateful (the part-run count and the counters) and not thread-safe: the engine calls it
 * under its mutex. A returned plan counts as started; the caller must claim and run it.
 */
public final class DlcScheduler {
  /** L0→L0 outputs are one table: the executor must not cut them. */
  private static final OutputLimits ONE_TABLE = new OutputLimits(Long.MAX_VALUE, Long.MAX_VALUE);

  /** What {@link #next} decided, and why, for logs and tests. */
  public enum Action {
    /** Low load: the picker's plan. */
    PICKER,
    /** High load: one compaction below L0. */
    LOWER_LEVEL,
    /** Bursty "resume part": fresh L0 tables merged into one L0 table. */
    RESUME_PART,
    /** Bursty "resume full": all of L0 into L1. */
    RESUME_FULL,
    /** Nothing to start (nothing due, or held back by the load). */
    NONE
  }

  /** The decision: a plan to start (with {@link Action} and reason), or none. */
  public record Decision(Action action, Optional<CompactionPlan> plan, String reason) {
    static Decision none(String reason) {
      return new Decision(Action.NONE, Optional.empty(), reason);
    }

    static Decision run(Action action, CompactionPlan plan) {
      return new Decision(action, Optional.of(plan), plan.reason());
    }
  }

  /** Totals since the scheduler was made. */
  public record Counters(long delayedL0Compactions, long partRuns, long fullRuns) {}

  private final DlcConfig config;
  private final LeveledCompactionPicker picker;

  private int partRunsSinceFull;
  private long delayedL0Compactions;
  private long partRuns;
  private long fullRuns;
  /** The L0 file ids last seen held back; a delay is counted once per new L0 shape. */
  private Set<Long> lastHeldL0 = Set.of();

  public DlcScheduler(DlcConfig config, LeveledCompactionPicker picker) {
    this.config = Objects.requireNonNull(config, "config");
    this.picker = Objects.requireNonNull(picker, "picker");
  }

  public DlcConfig config() {
    return config;
  }

  public Counters counters() {
    return new Counters(delayedL0Compactions, partRuns, fullRuns);
  }

  /**
   * The next compaction to start under {@code load}, or none.
   *
   * @param running plans in flight (claimed and not yet installed)
   * @param burstyOutputs ids of L0 tables written by part runs; ids no longer in L0 are ignored
   */
  public Decision next(LoadClass load, LsmShape shape, List<CompactionPlan> running, Set<Long> burstyOutputs) {
    RunningCompactions claims = RunningCompactions.of(running);
    if (load == LoadClass.LOW) {
      Optional<CompactionPlan> plan = picker.pick(shape, claims);
      if (plan.isEmpty()) {
        return Decision.none("low load: nothing due");
      }
      if (plan.get().inputLevel() == 0) {
        // L0 drains into L1: earlier part outputs go with it, so the part count starts over.
        partRunsSinceFull = 0;
      }
      return Decision.run(Action.PICKER, plan.get());
    }
    List<FileDescriptor> l0 = shape.files(0);
    if (!claims.anyBusy(l0)) {
      Optional<Decision> bursty = bursty(shape, claims, l0, burstyOutputs);
      if (bursty.isPresent()) {
        return bursty.get();
      }
    }
    boolean l0Due = l0.size() >= picker.config().l0CompactionTrigger();
    if (l0Due) {
      noteHeld(l0);
    }
    boolean lowerRunning = running.stream().anyMatch(p -> p.inputLevel() > 0);
    if (lowerRunning) {
      return Decision.none("high load: one compaction below L0 already runs");
    }
    Optional<CompactionPlan> lower = picker.pick(withoutL0(shape), claims);
    if (lower.isPresent()) {
      return Decision.run(Action.LOWER_LEVEL, lower.get());
    }
    return Decision.none(l0Due ? "high load: L0 compaction delayed" : "high load: nothing due");
  }

  private Optional<Decision> bursty(
      LsmShape shape, RunningCompactions claims, List<FileDescriptor> l0, Set<Long> burstyOutputs) {
    List<FileDescriptor> fresh = newestFreshRun(l0, burstyOutputs);
    boolean partDue = fresh.size() >= 2
        && (fresh.size() >= config.partTriggerFreshFiles()
            || (config.partTriggerFreshBytes() > 0 && bytes(fresh) >= config.partTriggerFreshBytes()));
    boolean fullDue = l0.size() >= config.fullTriggerL0Files()
        || (config.fullTriggerL0Bytes() > 0 && bytes(l0) >= config.fullTriggerL0Bytes())
        || (partDue && partRunsSinceFull >= config.partRunsBeforeFull());
    if (fullDue) {
      Optional<CompactionPlan> full = picker.planManual(shape, 0, null, null, claims);
      if (full.isPresent()) {
        partRunsSinceFull = 0;
        fullRuns++;
        return Optional.of(Decision.run(Action.RESUME_FULL, withReason(full.get(), String.format(
            Locale.ROOT, "DLC resume full: %d L0 files, %d bytes, %d part runs", l0.size(), bytes(l0),
            partRuns))));
      }
      // L1 is busy below: a part run, if due, still relieves L0.
    }
    boolean delayPartMerge = config.delayPolicy() == DlcConfig.DelayPolicy.DELAY_PART
        && fresh.size() >= 2 && l0.size() >= picker.config().l0CompactionTrigger();
    if (partDue || delayPartMerge) {
      partRunsSinceFull++;
      partRuns++;
      String why = partDue ? "DLC resume part" : "DLC delay part (L0->L0)";
      return Optional.of(Decision.run(Action.RESUME_PART, l0ToL0(fresh, String.format(
          Locale.ROOT, "%s: %d fresh L0 files, %d bytes", why, fresh.size(), bytes(fresh)))));
    }
    return Optional.empty();
  }

  /** The newest L0 tables up to the first one a part run wrote (L0 is newest first). */
  static List<FileDescriptor> newestFreshRun(List<FileDescriptor> l0, Set<Long> burstyOutputs) {
    List<FileDescriptor> run = new ArrayList<>();
    for (FileDescriptor f : l0) {
      if (burstyOutputs.contains(f.id())) {
        break;
      }
      run.add(f);
    }
    return run;
  }

  /**
   * A part run: merge {@code fresh} (newest first, adjacent in age) into one L0 table. Never
   * bottommost: older versions and tombstones below must stay shadowed.
   */
  static CompactionPlan l0ToL0(List<FileDescriptor> fresh, String reason) {
    return new CompactionPlan(CompactionKind.L0_TO_L0, 0, 0, fresh, List.of(), List.of(), null,
        false, ONE_TABLE, reason);
  }

  private void noteHeld(List<FileDescriptor> l0) {
    Set<Long> ids = ids(l0);
    if (!ids.equals(lastHeldL0)) {
      delayedL0Compactions++;
      lastHeldL0 = ids;
    }
  }

  private static CompactionPlan withReason(CompactionPlan p, String reason) {
    return new CompactionPlan(p.kind(), p.inputLevel(), p.outputLevel(), p.inputs(), p.targets(),
        p.grandparents(), p.newCompactionPointer(), p.bottommost(), p.outputLimits(), reason);
  }

  /** The shape with L0 empty, so the picker looks below it only. */
  static LsmShape withoutL0(LsmShape shape) {
    List<LevelShape> levels = new ArrayList<>(shape.levels());
    levels.set(0, LevelShape.empty(0));
    return new LsmShape(levels, shape.compactionPointers());
  }

  private static long bytes(List<FileDescriptor> files) {
    long total = 0;
    for (FileDescriptor f : files) {
      total += f.sizeBytes();
    }
    return total;
  }

  private static Set<Long> ids(List<FileDescriptor> files) {
    Set<Long> ids = new HashSet<>();
    files.forEach(f -> ids.add(f.id()));
    return Set.copyOf(ids);
  }
}

package dev.cairn.compaction.dlc;

import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPicker;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.OutputLimits;
import dev.cairn.compaction.RunningCompactions;
import dev.cairn.model.FileDescriptor;
import dev.cairn.model.LsmShape;
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
 *   <li><b>Bounded delay</b>: with {@code maxDelayMillis} set, an L0 compaction held back that
 *       long runs whatever the load ("release at bound"), so no read faces a growing L0 for
 *       longer than the bound. The delay starts when L0 first reaches the compaction trigger
 *       under high load and ends when an L0→L1 compaction starts or L0 falls below the trigger.
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
    /** The delay reached {@code maxDelayMillis}: all of L0 into L1 despite the load. */
    RELEASE_AT_BOUND,
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
  public record Counters(
      long delayedL0Compactions, long partRuns, long fullRuns, long releasesAtBound) {}

  private final DlcConfig config;
  private final CompactionPicker picker;
  private final DlcClock clock;

  private int partRunsSinceFull;
  private long releasesAtBound;
  /** When the current delay of an L0 compaction began; -1 while none is held back. */
  private long heldSinceNanos = -1;
  private long delayedL0Compactions;
  private long partRuns;
  private long fullRuns;
  /** The L0 file ids last seen held back; a delay is counted once per new L0 shape. */
  private Set<Long> lastHeldL0 = Set.of();

  public DlcScheduler(DlcConfig config, CompactionPicker picker) {
    this(config, picker, System::nanoTime);
  }

  /** @param clock times the delay for {@code maxDelayMillis}; tests pass a simulated one */
  public DlcScheduler(DlcConfig config, CompactionPicker picker, DlcClock clock) {
    this.config = Objects.requireNonNull(config, "config");
    this.picker = Objects.requireNonNull(picker, "picker");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  public DlcConfig config() {
    return config;
  }

  public Counters counters() {
    return new Counters(delayedL0Compactions, partRuns, fullRuns, releasesAtBound);
  }

  /** How long the L0 compaction now held back has waited; 0 if none is. */
  public long currentDelayNanos() {
    return heldSinceNanos < 0 ? 0 : Math.max(0, clock.nanoTime() - heldSinceNanos);
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
        heldSinceNanos = -1;
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
    boolean l0Due = l0Due(shape);
    if (l0Due) {
      noteHeld(l0);
      Optional<Decision> release = releaseAtBound(shape, claims, l0);
      if (release.isPresent()) {
        return release.get();
      }
    } else {
      heldSinceNanos = -1;
    }
    boolean lowerRunning = running.stream().anyMatch(p -> p.inputLevel() > 0);
    if (lowerRunning) {
      return Decision.none("high load: one compaction below L0 already runs");
    }
    Optional<CompactionPlan> lower = picker.pick(shape.withEmptyLevel(0), claims);
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
        heldSinceNanos = -1;
        fullRuns++;
        return Optional.of(Decision.run(Action.RESUME_FULL, full.get().withReason(String.format(
            Locale.ROOT, "DLC resume full: %d L0 files, %d bytes, %d part runs", l0.size(), bytes(l0),
            partRuns))));
      }
      // L1 is busy below: a part run, if due, still relieves L0.
    }
    boolean delayPartMerge = config.delayPolicy() == DlcConfig.DelayPolicy.DELAY_PART
        && fresh.size() >= 2 && l0Due(shape);
    if (partDue || delayPartMerge) {
      partRunsSinceFull++;
      partRuns++;
      String why = partDue ? "DLC resume part" : "DLC delay part (L0->L0)";
      return Optional.of(Decision.run(Action.RESUME_PART, l0ToL0(fresh, String.format(
          Locale.ROOT, "%s: %d fresh L0 files, %d bytes", why, fresh.size(), bytes(fresh)))));
    }
    return Optional.empty();
  }

  /** Whether L0 has reached the picker's trigger: its L0 score is due. */
  private boolean l0Due(LsmShape shape) {
    return picker.scores(shape).get(0).isDue();
  }

  /** All of L0 into L1 if the delay has reached its bound and L0 and L1 are free for it. */
  private Optional<Decision> releaseAtBound(
      LsmShape shape, RunningCompactions claims, List<FileDescriptor> l0) {
    long heldMillis = currentDelayNanos() / 1_000_000;
    if (!config.delayIsBounded() || heldMillis < config.maxDelayMillis() || claims.anyBusy(l0)) {
      return Optional.empty();
    }
    Optional<CompactionPlan> full = picker.planManual(shape, 0, null, null, claims);
    if (full.isEmpty()) {
      return Optional.empty();
    }
    partRunsSinceFull = 0;
    heldSinceNanos = -1;
    releasesAtBound++;
    return Optional.of(Decision.run(Action.RELEASE_AT_BOUND, full.get().withReason(String.format(
        Locale.ROOT, "DLC release at bound: L0 delayed %d ms (bound %d ms), %d L0 files",
        heldMillis, config.maxDelayMillis(), l0.size()))));
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
    if (heldSinceNanos < 0) {
      heldSinceNanos = clock.nanoTime();
    }
    Set<Long> ids = ids(l0);
    if (!ids.equals(lastHeldL0)) {
      delayedL0Compactions++;
      lastHeldL0 = ids;
    }
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

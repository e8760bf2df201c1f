package dev.cairn.db.compact;

import dev.cairn.Stats;
import dev.cairn.compaction.CompactionKind;
import dev.cairn.compaction.CompactionPicker;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.dlc.DlcConfig;
import dev.cairn.compaction.dlc.DlcScheduler;
import dev.cairn.compaction.dlc.LoadCounters;
import dev.cairn.compaction.dlc.LoadEstimate;
import dev.cairn.compaction.dlc.LoadModel;
import dev.cairn.db.base.Engine;
import dev.cairn.db.base.PeriodicTask;
import dev.cairn.model.FileDescriptor;
import dev.cairn.model.LsmShape;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The engine side of Delayed L0 Compaction (docs/dlc.md): a monitor thread that feeds the pure
 * {@link LoadModel} every interval with the block cache's insert count (and the get and scan
 * counts), the {@link DlcScheduler} that chooses the next plan, and the {@link CompactionThrottle}
 * whose rate follows the model and which paces every compaction of every style.
 *
 * <p>Which L0 tables a bursty "resume part" wrote is kept in memory only: after a restart they
 * look freshly flushed and a later part run may merge them once more. That costs one extra merge
 * of a few tables, never correctness (the part run still takes only the newest contiguous run of
 * L0), so the manifest format stays unchanged.
 *
 * <p>The monitor's first tick, one interval after open, takes the baseline; the first estimate
 * follows one interval later. Tests drive the model through {@link #observe} with a scripted
 * clock and counters and set an interval long enough that the monitor never ticks.
 */
public final class DlcRuntime implements SchedulerRuntime {
  private static final System.Logger LOG = System.getLogger(DlcRuntime.class.getName());

  private final Engine engine;
  private final LoadModel model;
  private final DlcScheduler scheduler;
  private final CompactionThrottle throttle;
  /** Set by {@link #start}. */
  private volatile PeriodicTask monitor;
  // Guarded by the engine mutex.
  private final Set<Long> burstyOutputs = new HashSet<>();

  public DlcRuntime(Engine engine, DlcConfig config, CompactionPicker picker) {
    this.engine = engine;
    this.model = new LoadModel(config, engine.options().blockBytes(), System::nanoTime, this::sample);
    this.scheduler = new DlcScheduler(config, picker);
    this.throttle = new CompactionThrottle(engine.fs().ioStats(), model.current().compactionBytesPerSecond());
  }

  @Override
  public void start() {
    monitor = PeriodicTask.start(engine, "cairn-dlc", model.config().intervalMillis(), this::tick);
  }

  /** Stops the monitor and waits for a tick in progress, so none runs after close. */
  @Override
  public void stop() {
    if (monitor != null) {
      monitor.stop(10_000);
    }
  }

  private LoadCounters.Sample sample() {
    return new LoadCounters.Sample(engine.blockCache().stats().inserts(), engine.counters().getLatency().count(),
        engine.counters().scanLatency().count());
  }

  private void tick() {
    try {
      apply(model.tick());
    } catch (Throwable t) {
      // A failed tick must not end the monitor: the next interval measures again.
      LOG.log(System.Logger.Level.WARNING, "DLC load monitor tick failed: " + t);
    }
  }

  /** One interval with scripted figures (tests). */
  public LoadEstimate observe(long nowNanos, LoadCounters.Sample totals) {
    LoadEstimate e = model.observe(nowNanos, totals);
    apply(e);
    return e;
  }

  /** New rate for the throttle; a compaction the load held back may now be startable. */
  private void apply(LoadEstimate e) {
    throttle.setRate(e.compactionBytesPerSecond());
    engine.mutex().lock();
    try {
      engine.background().maybeScheduleBackgroundWork();
    } finally {
      engine.mutex().unlock();
    }
  }

  @Override
  public CompactionThrottle pacer() {
    return throttle;
  }

  LoadEstimate estimate() {
    return model.current();
  }

  /** Requires: mutex held. The plan to start next under the current load, if any. */
  @Override
  public Optional<CompactionPlan> next(LsmShape shape, List<CompactionPlan> running) {
    assert engine.mutex().isHeldByCurrentThread();
    Set<Long> l0 = new HashSet<>();
    for (FileDescriptor f : shape.files(0)) {
      l0.add(f.id());
    }
    burstyOutputs.retainAll(l0);
    return scheduler.next(model.current().load(), shape, running, Set.copyOf(burstyOutputs)).plan();
  }

  /** Requires: mutex held. Tables a part run installed: never merged by a part run again. */
  @Override
  public void installed(CompactionPlan plan, List<Long> outputs) {
    assert engine.mutex().isHeldByCurrentThread();
    if (plan.kind() == CompactionKind.L0_TO_L0) {
      burstyOutputs.addAll(outputs);
    }
  }

  /** Requires: mutex held. */
  @Override
  public Stats.Dlc stats(int l0Files, long l0Bytes) {
    assert engine.mutex().isHeldByCurrentThread();
    LoadEstimate e = model.current();
    DlcScheduler.Counters c = scheduler.counters();
    return new Stats.Dlc(true, e.load(), e.clientBytesPerSecond(), throttle.rate(),
        c.delayedL0Compactions(), c.partRuns(), c.fullRuns(), l0Files, l0Bytes);
  }
}

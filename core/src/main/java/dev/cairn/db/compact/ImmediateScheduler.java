package dev.cairn.db.compact;

import dev.cairn.Stats;
import dev.cairn.compaction.CompactionPicker;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.RunningCompactions;
import dev.cairn.db.base.Engine;
import dev.cairn.model.LsmShape;
import java.util.List;
import java.util.Optional;

/**
 * Compactions start as soon as the picker finds one due, and run unpaced (LevelDB); once writes
 * have stopped for {@link dev.cairn.config.CompactionSettings#idleDrainMillis()}, the picker drains the upper
 * levels instead ({@link IdleDrain}).
 */
public final class ImmediateScheduler implements SchedulerRuntime {
  private final CompactionPicker picker;
  private final IdleDrain idle;

  /** @param idleDrainMillis {@link dev.cairn.config.CompactionSettings#idleDrainMillis()}; 0: off */
  public ImmediateScheduler(Engine engine, CompactionPicker picker, long idleDrainMillis) {
    this.picker = picker;
    this.idle = new IdleDrain(engine, idleDrainMillis, System::nanoTime);
  }

  @Override
  public void start() {
    idle.start();
  }

  @Override
  public void stop() {
    idle.stop();
  }

  @Override
  public Optional<CompactionPlan> next(LsmShape shape, List<CompactionPlan> running) {
    RunningCompactions claims = RunningCompactions.of(running);
    return idle.draining() ? picker.pickDraining(shape, claims) : picker.pick(shape, claims);
  }

  @Override
  public CompactionPacer pacer() {
    return CompactionPacer.UNPACED;
  }

  @Override
  public long idleDrains() {
    return idle.drains();
  }

  @Override
  public Stats.Dlc stats(int l0Files, long l0Bytes) {
    return Stats.Dlc.OFF;
  }
}

package dev.cairn.db;

import dev.cairn.Stats;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.compaction.RunningCompactions;
import dev.cairn.compaction.leveled.LeveledCompactionPicker;
import dev.cairn.compaction.model.LsmShape;
import java.util.List;
import java.util.Optional;

/** Compactions start as soon as the leveled picker finds one due, and run unpaced (LevelDB). */
final class ImmediateScheduler implements SchedulerRuntime {
  private final LeveledCompactionPicker picker;

  ImmediateScheduler(LeveledCompactionPicker picker) {
    this.picker = picker;
  }

  @Override
  public Optional<CompactionPlan> next(LsmShape shape, List<CompactionPlan> running) {
    return picker.pick(shape, RunningCompactions.of(running));
  }

  @Override
  public CompactionPacer pacer() {
    return CompactionPacer.UNPACED;
  }

  @Override
  public Stats.Dlc stats(int l0Files, long l0Bytes) {
    return Stats.Dlc.OFF;
  }
}

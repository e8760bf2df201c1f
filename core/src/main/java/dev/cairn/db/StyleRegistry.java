package dev.cairn.db;

import dev.cairn.Options;
import dev.cairn.compaction.CompactionPicker;
import dev.cairn.compaction.dlsm.TwoPhaseCompactionPicker;
import dev.cairn.compaction.dlsm.TwoPhaseLayout;
import dev.cairn.compaction.leveled.CompactionPriority;
import dev.cairn.compaction.leveled.LeveledCompactionPicker;
import dev.cairn.compaction.leveled.LeveledConfig;
import dev.cairn.config.CompactionSettings;
import dev.cairn.config.CompactionSettings.Block;
import dev.cairn.config.CompactionSettings.Buffer;
import dev.cairn.config.CompactionSettings.Dlc;
import dev.cairn.config.CompactionSettings.Leveled;
import dev.cairn.config.CompactionSettings.Table;
import dev.cairn.config.CompactionSettings.TwoPhase;
import dev.cairn.db.base.Engine;
import dev.cairn.db.buffer.BufferLeftover;
import dev.cairn.db.buffer.BufferStyle;
import dev.cairn.db.compact.BlockStyle;
import dev.cairn.db.compact.Compactions;
import dev.cairn.db.compact.DlcRuntime;
import dev.cairn.db.compact.ImmediateScheduler;
import dev.cairn.db.compact.SchedulerRuntime;
import dev.cairn.db.compact.StyleRuntime;
import dev.cairn.db.compact.TableStyle;
import dev.cairn.db.read.BufferScans;
import dev.cairn.db.read.PointReads;

/**
 * The one place that maps the options' {@link CompactionSettings} to the runtimes and the picker.
 * Adding a style is one class implementing {@link StyleRuntime}, one record in {@link
 * CompactionSettings} and one branch here; nothing else in the engine names a style or a
 * scheduler.
 */
final class StyleRegistry {
  private StyleRegistry() {}

  /**
   * The compactions the options ask for: their picker, style and scheduler.
   *
   * @param reads the read path's per-level counters (a buffer counts into them)
   * @param scans the level files iterators may read from buffer files (a buffer fills it)
   */
  static Compactions compactions(Engine engine, PointReads reads, BufferScans scans) {
    CompactionPicker picker = picker(engine.options());
    return new Compactions(engine, picker, style(engine, reads, scans), scheduler(engine, picker));
  }

  /**
   * The style of the options' execution. A style without a buffer is wrapped so that a buffer an
   * earlier open left drains correctly ({@link BufferLeftover}).
   *
   * @param reads the read path's per-level counters (the buffer counts into them)
   * @param scans the level files iterators may read from buffer files (the buffer fills it)
   */
  static StyleRuntime style(Engine engine, PointReads reads, BufferScans scans) {
    CompactionSettings.Execution execution = engine.options().compaction().execution();
    if (execution instanceof Buffer buffer) {
      return new BufferStyle(engine, buffer.config(), reads, scans);
    }
    StyleRuntime style = execution instanceof Block block
        ? new BlockStyle(engine, block)
        : new TableStyle(engine); // Table, PlainMerge
    return new BufferLeftover(style, engine, reads, scans);
  }

  /** The picker for the options' level layout; its sizes come from the options. */
  static CompactionPicker picker(Options o) {
    // The grandparent and expansion factors are the picker's own (LevelDB's).
    LeveledConfig leveled = LeveledConfig.of(Options.MAX_LEVELS, o.l0CompactionTrigger(), o.baseLevelBytes(),
        o.levelSizeRatio(), o.targetFileBytes());
    if (o.compaction() instanceof TwoPhase) {
      return new TwoPhaseCompactionPicker(new TwoPhaseLayout(leveled, TwoPhaseLayout.DEFAULT_PAIRS));
    }
    return new LeveledCompactionPicker(leveled, priority(((Leveled) o.compaction()).execution()));
  }

  /** The priority a leveled execution starts its compactions by; the buffer's rounds sweep round-robin. */
  static CompactionPriority priority(CompactionSettings.LeveledExecution execution) {
    if (execution instanceof Table table) {
      return table.priority();
    }
    if (execution instanceof Block block) {
      return block.priority();
    }
    return CompactionPriority.ROUND_ROBIN;
  }

  static SchedulerRuntime scheduler(Engine engine, CompactionPicker picker) {
    CompactionSettings settings = engine.options().compaction();
    if (settings instanceof Leveled leveled && leveled.scheduler() instanceof Dlc dlc) {
      return new DlcRuntime(engine, dlc.config(), picker);
    }
    return new ImmediateScheduler(engine, picker, settings.idleDrainMillis());
  }
}

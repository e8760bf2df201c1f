package dev.cairn.db;

import dev.cairn.Options;
import dev.cairn.compaction.CompactionPicker;
import dev.cairn.compaction.dlsm.TwoPhaseCompactionPicker;
import dev.cairn.compaction.dlsm.TwoPhaseLayout;
import dev.cairn.compaction.leveled.LeveledCompactionPicker;
import dev.cairn.compaction.leveled.LeveledConfig;

/**
 * The one place that maps the options' compaction style, level layout and scheduler to their
 * runtimes and picker. Adding
 * a style is one class implementing {@link StyleRuntime} and one case here (plus its value in
 * {@link Options.CompactionStyle}); nothing else in the engine names a style or a scheduler.
 */
final class StyleRegistry {
  private StyleRegistry() {}

  static StyleRuntime style(Engine engine) {
    return switch (engine.options().compactionStyle()) {
      case TABLE -> new TableStyle(engine);
      case BLOCK -> new BlockStyle(engine);
      case BUFFER -> new BufferStyle(engine);
    };
  }

  /** The picker for the options' level layout; its sizes come from the options. */
  static CompactionPicker picker(Options o) {
    // The grandparent and expansion factors are the picker's own (LevelDB's).
    LeveledConfig leveled = LeveledConfig.of(Options.MAX_LEVELS, o.l0CompactionTrigger(), o.baseLevelBytes(),
        o.levelSizeRatio(), o.targetFileBytes());
    return switch (o.levelLayout()) {
      case LEVELED -> new LeveledCompactionPicker(leveled, o.compactionPriority());
      case TWO_PHASE -> new TwoPhaseCompactionPicker(new TwoPhaseLayout(leveled, TwoPhaseLayout.DEFAULT_PAIRS));
    };
  }

  static SchedulerRuntime scheduler(Engine engine, CompactionPicker picker) {
    return switch (engine.options().compactionScheduler()) {
      case IMMEDIATE -> new ImmediateScheduler(engine, picker);
      case DLC -> new DlcRuntime(engine, engine.options().dlc(), picker);
    };
  }
}

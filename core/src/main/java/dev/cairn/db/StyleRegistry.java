package dev.cairn.db;

import dev.cairn.Options;
import dev.cairn.compaction.leveled.LeveledCompactionPicker;

/**
 * The one place that maps the options' compaction style and scheduler to their runtimes. Adding
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

  static SchedulerRuntime scheduler(Engine engine, LeveledCompactionPicker picker) {
    return switch (engine.options().compactionScheduler()) {
      case IMMEDIATE -> new ImmediateScheduler(picker);
      case DLC -> new DlcRuntime(engine, engine.options().dlc(), picker);
    };
  }
}

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

  static StyleRuntime style(DbImpl db) {
    return switch (db.options.compactionStyle()) {
      case TABLE -> new TableStyle(db);
      case BLOCK -> new BlockStyle(db);
      case BUFFER -> new BufferStyle(db);
    };
  }

  static SchedulerRuntime scheduler(DbImpl db, LeveledCompactionPicker picker) {
    return switch (db.options.compactionScheduler()) {
      case IMMEDIATE -> new ImmediateScheduler(picker);
      case DLC -> new DlcRuntime(db, db.options.dlc(), picker);
    };
  }
}

package dev.cairn.db;

import dev.cairn.Stats;
import dev.cairn.table.TableOptions;

/**
 * A compaction style as the engine runs it: what one claimed plan does to the files, how the
 * tables it writes are built, whether merges feed the compaction buffer, how obsolete files are
 * batched, and its own statistics. The plans themselves come from the scheduler
 * ({@link SchedulerRuntime}); a style only executes them. {@link StyleRegistry} maps the
 * execution of {@link dev.cairn.config.CompactionSettings} to an implementation
 * (docs/architecture.md, "Adding a compaction style").
 */
interface StyleRuntime {
  /** How this style executes {@code claimed}, paced by {@code pacer}. */
  CompactionExecution execution(Compactions.Claimed claimed, CompactionPacer pacer);

  /** The options of every table this database writes (flushes and compactions). */
  TableOptions tableOptions();

  /**
   * Whether merges append their inputs to the output level's compaction buffer and the trim
   * runs. Every style keeps a leftover buffer correct (markers) while it drains.
   */
  boolean buffersMerges();

  /** Obsolete files are deleted once they add up to this many bytes (0: at once). */
  long obsoleteFileBatchBytes();

  /** The style's block-compaction figures ({@link Stats.Block#OFF} if it does none). */
  default Stats.Block blockStats() {
    return Stats.Block.OFF;
  }
}

package dev.cairn.db.compact;

import dev.cairn.Stats;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.table.TableOptions;
import dev.cairn.version.Version;
import dev.cairn.version.VersionEdit;

/**
 * A compaction style as the engine runs it: what one claimed plan does to the files, how the
 * tables it writes are built, what it adds to a compaction's edit at install (the compaction
 * buffer's appends and markers), its own background tasks, how obsolete files are batched, and
 * its own statistics. The plans themselves come from the scheduler
 * ({@link SchedulerRuntime}); a style only executes them. {@link StyleRegistry} maps the
 * execution of {@link dev.cairn.config.CompactionSettings} to an implementation
 * (docs/architecture.md, "Adding a compaction style").
 */
public interface StyleRuntime {
  /** How this style executes {@code claimed}, paced by {@code pacer}. */
  CompactionExecution execution(Compactions.Claimed claimed, CompactionPacer pacer);

  /** The options of every table this database writes (flushes and compactions). */
  TableOptions tableOptions();

  /** Obsolete files are deleted once they add up to this many bytes (0: at once). */
  long obsoleteFileBatchBytes();

  /** The style's block-compaction figures ({@link Stats.Block#OFF} if it does none). */
  default Stats.Block blockStats() {
    return Stats.Block.OFF;
  }

  /** Starts the style's own background tasks, if any: after recovery, before any install. */
  default void start() {}

  /** Stops them, waiting for one in progress; nothing of the style runs after it returns. */
  default void stop() {}

  /**
   * Requires: mutex held, the installer holding the manifest, {@code edit} about to be installed
   * on the current version. Adds the style's own part to a compaction's edit, atomic with it (the
   * compaction buffer's appends and markers). {@code outputDiffers}: the output holds values its
   * inputs do not (the user's filter acted: {@link CompactionExecution#smallestFilteredSequence()}).
   */
  default void beforeInstall(CompactionPlan plan, VersionEdit edit, boolean outputDiffers) {}

  /** Requires: mutex held. The compaction buffer's figures in {@code v} ({@link Stats.Buffer#OFF} without one). */
  default Stats.Buffer bufferStats(Version v) {
    return Stats.Buffer.OFF;
  }
}

package dev.cairn.db.compact;

import dev.cairn.Stats;
import dev.cairn.compaction.CompactionPlan;
import dev.cairn.model.LsmShape;
import java.util.List;
import java.util.Optional;

/**
 * When compactions run and how fast: the scheduler chooses the next plan for a shape (the
 * immediate scheduler asks the leveled picker, DLC may hold L0 compactions back or start a
 * bursty one) and hands every compaction job the pacer for its I/O, whatever the style.
 * {@link StyleRegistry} maps the scheduler of {@link dev.cairn.config.CompactionSettings} to an
 * implementation.
 */
public interface SchedulerRuntime {
  /** Starts the scheduler's own threads, if any (after recovery). */
  default void start() {}

  /** Stops them and waits for a tick in progress; none runs afterwards. */
  default void stop() {}

  /**
   * Requires: mutex held. The plan to start next, clear of the {@code running} ones, if any.
   */
  Optional<CompactionPlan> next(LsmShape shape, List<CompactionPlan> running);

  /** The pacer every compaction job calls as it reads and writes. */
  CompactionPacer pacer();

  /** Requires: mutex held. {@code plan}'s edit, which wrote {@code outputs}, is installed. */
  default void installed(CompactionPlan plan, List<Long> outputs) {}

  /** Times aggressive compaction began draining the upper levels since open (writes had stopped). */
  default long idleDrains() {
    return 0;
  }

  /** Requires: mutex held. The scheduler's figures ({@link Stats.Dlc#OFF} unless DLC). */
  Stats.Dlc stats(int l0Files, long l0Bytes);
}

package dev.cairn.compaction;

import dev.cairn.compaction.model.LsmShape;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a shape into the next compaction worth running, or none. Pure: same shape and busy set,
 * same answer; no I/O, no clock.
 */
public interface CompactionPicker {

  /**
   * The most urgent plan whose files are all idle, if any compaction is due.
   *
   * @param busy ids of files that running compactions read or replace; a returned plan names
   *     none of them, so it may run alongside those compactions
   */
  Optional<CompactionPlan> pick(LsmShape shape, Set<Long> busy);
}

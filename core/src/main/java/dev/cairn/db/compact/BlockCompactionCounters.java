package dev.cairn.db.compact;

import dev.cairn.Stats;
import java.util.concurrent.atomic.LongAdder;

/** Counters of block compaction ({@link Stats.Block}). Thread-safe. */
final class BlockCompactionCounters {
  private final LongAdder appendedTables = new LongAdder();
  private final LongAdder rewrittenTables = new LongAdder();
  private final LongAdder dirtyBlocks = new LongAdder();
  private final LongAdder appendedBytes = new LongAdder();
  private final LongAdder filterRebuilds = new LongAdder();

  Stats.Block snapshot(boolean enabled) {
    return new Stats.Block(enabled, appendedTables.sum(), rewrittenTables.sum(), dirtyBlocks.sum(),
        appendedBytes.sum(), filterRebuilds.sum());
  }

  LongAdder appendedTables() {
    return appendedTables;
  }

  LongAdder rewrittenTables() {
    return rewrittenTables;
  }

  LongAdder dirtyBlocks() {
    return dirtyBlocks;
  }

  LongAdder appendedBytes() {
    return appendedBytes;
  }

  LongAdder filterRebuilds() {
    return filterRebuilds;
  }
}

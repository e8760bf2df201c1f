package dev.cairn.db;

import dev.cairn.Stats;
import java.util.concurrent.atomic.LongAdder;

/** Counters of block compaction ({@link Stats.Block}). Thread-safe. */
final class BlockCompactionCounters {
  final LongAdder appendedTables = new LongAdder();
  final LongAdder rewrittenTables = new LongAdder();
  final LongAdder dirtyBlocks = new LongAdder();
  final LongAdder appendedBytes = new LongAdder();
  final LongAdder filterRebuilds = new LongAdder();

  Stats.Block snapshot(boolean enabled) {
    return new Stats.Block(enabled, appendedTables.sum(), rewrittenTables.sum(), dirtyBlocks.sum(),
        appendedBytes.sum(), filterRebuilds.sum());
  }
}

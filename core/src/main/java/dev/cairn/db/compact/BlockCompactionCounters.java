package dev.cairn.db.compact;

import dev.cairn.Stats;
import dev.cairn.compaction.block.TargetChoice;
import dev.cairn.compaction.block.TargetStats;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;

/** Counters of block compaction ({@link Stats.Block}). Thread-safe. */
final class BlockCompactionCounters {
  private final LongAdder appendedTables = new LongAdder();
  private final LongAdder rewrittenTables = new LongAdder();
  private final LongAdder dirtyBlocks = new LongAdder();
  private final LongAdder appendedBytes = new LongAdder();
  private final LongAdder filterRebuilds = new LongAdder();
  /** Per output level, per rule: tables, target bytes, data blocks, dirty blocks, 1 if it appends. */
  private final Map<Integer, Map<TargetChoice.Reason, long[]>> choices = new TreeMap<>();

  Stats.Block snapshot(boolean enabled) {
    List<Stats.Choices> byLevel = new ArrayList<>();
    synchronized (choices) {
      choices.forEach((level, byReason) -> byReason.forEach((reason, c) ->
          byLevel.add(new Stats.Choices(level, reason.name(), c[4] == 1, c[0], c[1], c[2], c[3]))));
    }
    return new Stats.Block(enabled, appendedTables.sum(), rewrittenTables.sum(), dirtyBlocks.sum(),
        appendedBytes.sum(), filterRebuilds.sum(), byLevel);
  }

  /** Counts the selective rule's decision on one target of a merge into {@code level}. */
  void chose(int level, TargetChoice choice, TargetStats target) {
    synchronized (choices) {
      long[] c = choices.computeIfAbsent(level, l -> new EnumMap<>(TargetChoice.Reason.class))
          .computeIfAbsent(choice.reason(), r -> new long[5]);
      c[0]++;
      c[1] += target.totalBytes();
      c[2] += target.dataBlocks();
      c[3] += target.dirtyBlocks();
      c[4] = choice.mode() == TargetChoice.Mode.BLOCK ? 1 : 0;
    }
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

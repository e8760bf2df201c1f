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
  /**
   * The decisions so far, per output level, per thresholds (upper before last), per rule: the
   * order of {@link Stats.Block#choices()}.
   */
  private final Map<Integer, Map<Boolean, Map<TargetChoice.Reason, Stats.Choices>>> choices = new TreeMap<>();

  Stats.Block snapshot(boolean enabled) {
    List<Stats.Choices> byLevel = new ArrayList<>();
    synchronized (choices) {
      choices.values().forEach(byThresholds -> byThresholds.values().forEach(byReason -> byLevel.addAll(byReason.values())));
    }
    return new Stats.Block(enabled, appendedTables.sum(), rewrittenTables.sum(), dirtyBlocks.sum(),
        appendedBytes.sum(), filterRebuilds.sum(), byLevel);
  }

  /**
   * Counts the selective rule's decision on one target of a merge into {@code level}, which took
   * the last level's thresholds if {@code lastLevel}.
   */
  void chose(int level, boolean lastLevel, TargetChoice choice, TargetStats target) {
    Stats.Choices one = new Stats.Choices(level, lastLevel, choice.reason().name(),
        choice.mode() == TargetChoice.Mode.BLOCK, 1, target.totalBytes(), target.dataBlocks(), target.dirtyBlocks());
    synchronized (choices) {
      choices.computeIfAbsent(level, l -> new TreeMap<>())
          .computeIfAbsent(lastLevel, l -> new EnumMap<>(TargetChoice.Reason.class))
          .merge(choice.reason(), one, BlockCompactionCounters::sum);
    }
  }

  private static Stats.Choices sum(Stats.Choices a, Stats.Choices b) {
    return new Stats.Choices(a.level(), a.lastLevel(), a.reason(), a.appended(), a.tables() + b.tables(),
        a.targetBytes() + b.targetBytes(), a.dataBlocks() + b.dataBlocks(), a.dirtyBlocks() + b.dirtyBlocks());
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

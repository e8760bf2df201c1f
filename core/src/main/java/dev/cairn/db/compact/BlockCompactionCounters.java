package dev.cairn.db.compact;

import dev.cairn.Stats;
import dev.cairn.compaction.block.TargetChoice;
import dev.cairn.compaction.block.TargetStats;
import java.util.ArrayList;
import java.util.Comparator;
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
  /** The decisions so far, in the order of {@link Stats.Block#choices()}. */
  private final Map<ChoiceKey, Stats.Choices> choices = new TreeMap<>();

  /** What one line of the counts sums over: by output level, upper thresholds before last, by rule. */
  private record ChoiceKey(int level, boolean lastLevel, TargetChoice.Reason reason)
      implements Comparable<ChoiceKey> {
    private static final Comparator<ChoiceKey> ORDER = Comparator.comparingInt(ChoiceKey::level)
        .thenComparing(ChoiceKey::lastLevel).thenComparing(ChoiceKey::reason);

    @Override
    public int compareTo(ChoiceKey other) {
      return ORDER.compare(this, other);
    }
  }

  Stats.Block snapshot(boolean enabled) {
    List<Stats.Choices> byLevel;
    synchronized (choices) {
      byLevel = new ArrayList<>(choices.values());
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
      choices.merge(new ChoiceKey(level, lastLevel, choice.reason()), one, BlockCompactionCounters::sum);
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

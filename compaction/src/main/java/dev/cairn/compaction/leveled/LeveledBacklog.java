package dev.cairn.compaction.leveled;

import dev.cairn.model.LsmShape;

/**
 * How many compactions the leveled rules have due, for a host's progress report (Cassandra's
 * pending compactions, shown by {@code nodetool compactionstats}). A delayed L0 compaction counts:
 * it is owed, only not yet started.
 *
 * <p>The estimate cascades: a due L0 is one compaction that moves all of L0 into L1; each level's
 * excess over its limit, what it holds plus what the compactions above move into it, is one
 * compaction per target file of excess, and that excess moves on into the next level. The last
 * level absorbs whatever reaches it.
 */
public final class LeveledBacklog {
  private LeveledBacklog() {}

  public static int estimatedTasks(LsmShape shape, LeveledConfig config) {
    if (shape.numLevels() != config.numLevels()) {
      throw new IllegalArgumentException(
          "shape has " + shape.numLevels() + " levels, config " + config.numLevels());
    }
    long tasks = 0;
    long incoming = 0;
    if (shape.level(0).fileCount() >= config.l0CompactionTrigger()) {
      tasks++;
      incoming = shape.totalBytes(0);
    }
    for (int level = 1; level < shape.numLevels() - 1; level++) {
      long total = saturatedAdd(shape.validBytes(level), incoming);
      long excess = Math.max(0, total - config.maxBytesForLevel(level));
      tasks += (excess + config.targetFileBytes() - 1) / config.targetFileBytes();
      incoming = excess;
    }
    return (int) Math.min(Integer.MAX_VALUE, tasks);
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }
}

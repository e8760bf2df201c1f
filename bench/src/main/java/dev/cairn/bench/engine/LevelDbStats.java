package dev.cairn.bench.engine;

/**
 * Parses LevelDB's {@code leveldb.stats} property:
 *
 * <pre>
 *                                Compactions
 * Level  Files Size(MB) Time(sec) Read(MB) Write(MB)
 * --------------------------------------------------
 *   0        3        3         0        0         3
 *   1        5       10         1       12        11
 * </pre>
 *
 * LevelDB charges a memtable flush to the level it lands in (usually 0, but up to 2 when the new
 * table overlaps nothing there) and a compaction to its output level, so the rows of levels 1 and
 * up are mostly compaction output. Levels without a row wrote nothing.
 */
final class LevelDbStats {
  private static final long MIB = 1L << 20;

  private LevelDbStats() {}

  /** Compaction bytes written (MiB resolution), or unavailable if {@code stats} is absent. */
  static long compactionBytesWritten(String stats) {
    if (stats == null) {
      return EngineMetrics.UNAVAILABLE;
    }
    double mib = 0;
    boolean sawTable = false;
    for (String line : stats.split("\n")) {
      String[] cols = line.trim().split("\\s+");
      if (cols.length == 6 && cols[0].chars().allMatch(Character::isDigit)) {
        sawTable = true;
        if (Integer.parseInt(cols[0]) >= 1) {
          mib += Double.parseDouble(cols[5]);
        }
      }
    }
    return sawTable || stats.contains("Level") ? Math.round(mib * MIB) : EngineMetrics.UNAVAILABLE;
  }

  /**
   * Whether LevelDB's own size rule owes a compaction by {@code stats}: four or more files in
   * level 0 ({@code kL0_CompactionTrigger}), or a level L >= 1 holding more than 10 MiB x
   * 10^(L-1) ({@code MaxBytesForLevel}), the last level (6) excepted. Sizes have MiB resolution,
   * so a level less than half a MiB over its limit reads as within it.
   */
  static boolean compactionOwed(String stats) {
    if (stats == null) {
      return false;
    }
    for (String line : stats.split("\n")) {
      String[] cols = line.trim().split("\\s+");
      if (cols.length == 6 && cols[0].chars().allMatch(Character::isDigit)) {
        int level = Integer.parseInt(cols[0]);
        if (level == 0 && Integer.parseInt(cols[1]) >= 4) {
          return true;
        }
        if (level >= 1 && level < 6 && Double.parseDouble(cols[2]) > 10 * Math.pow(10, level - 1)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Bytes written into each level (MiB resolution), level 0 first; empty if {@code stats} is absent. */
  static long[] bytesWrittenByLevel(String stats) {
    if (stats == null) {
      return new long[0];
    }
    java.util.TreeMap<Integer, Long> byLevel = new java.util.TreeMap<>();
    for (String line : stats.split("\n")) {
      String[] cols = line.trim().split("\\s+");
      if (cols.length == 6 && cols[0].chars().allMatch(Character::isDigit)) {
        byLevel.put(Integer.parseInt(cols[0]), Math.round(Double.parseDouble(cols[5]) * MIB));
      }
    }
    if (byLevel.isEmpty()) {
      return new long[0];
    }
    long[] bytes = new long[byLevel.lastKey() + 1];
    byLevel.forEach((level, b) -> bytes[level] = b);
    return bytes;
  }
}

package dev.cairn.bench.engine;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Per-level bytes written, from RocksDB's {@code rocksdb.cfstats} map property (rocksdbjni's
 * {@code getMapProperty}), whose keys are {@code compaction.L<n>.<stat>} plus a
 * {@code compaction.Sum.*} row. {@code WriteGB} is what was written into level n: flushes for
 * L0, compaction output for deeper levels (trivial moves are {@code MovedGB} and write nothing).
 * The values are GiB printed with six decimals, so the resolution is about 1 KiB. Levels the
 * map does not list (not yet reached) wrote nothing.
 */
final class RocksDbLevelStats {
  private static final Pattern WRITE_GB = Pattern.compile("compaction\\.L(\\d+)\\.WriteGB");
  private static final double GIB = 1L << 30;

  private RocksDbLevelStats() {}

  /** Bytes written per level, level 0 first; empty if the map has no per-level rows. */
  static long[] bytesWrittenByLevel(Map<String, String> cfstats) {
    TreeMap<Integer, Long> byLevel = new TreeMap<>();
    for (Map.Entry<String, String> e : cfstats.entrySet()) {
      Matcher m = WRITE_GB.matcher(e.getKey());
      if (m.matches()) {
        try {
          byLevel.put(Integer.parseInt(m.group(1)), Math.round(Double.parseDouble(e.getValue().trim()) * GIB));
        } catch (NumberFormatException ex) {
          return new long[0];
        }
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

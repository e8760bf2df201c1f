package dev.cairn.bench.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The peers' per-level write figures, parsed from the texts their libraries print. */
class LevelStatsParsingTest {
  @Test
  void rocksDbCfstatsMapGivesWriteGibPerLevel() {
    Map<String, String> cfstats = Map.of(
        "compaction.L0.WriteGB", "0.004825",
        "compaction.L1.WriteGB", "0.500000",
        "compaction.L1.ReadGB", "9.000000",
        "compaction.L3.WriteGB", "1.000000",
        "compaction.Sum.WriteGB", "1.504825");
    long[] bytes = RocksDbLevelStats.bytesWrittenByLevel(cfstats);
    assertArrayEquals(new long[] {Math.round(0.004825 * (1L << 30)), 1L << 29, 0, 1L << 30}, bytes);
    assertEquals(0, RocksDbLevelStats.bytesWrittenByLevel(Map.of("rocksdb.other", "1")).length);
  }

  @Test
  void levelDbStatsGiveWriteMibPerLevel() {
    String stats = """
                                       Compactions
        Level  Files Size(MB) Time(sec) Read(MB) Write(MB)
        --------------------------------------------------
          0        3        3         0        0         3
          2        5       10         1       12        11
        """;
    assertArrayEquals(new long[] {3L << 20, 0, 11L << 20}, LevelDbStats.bytesWrittenByLevel(stats));
    assertEquals(0, LevelDbStats.bytesWrittenByLevel(null).length);
    assertEquals(11L << 20, LevelDbStats.compactionBytesWritten(stats));
  }

  @Test
  void levelDbOwesACompactionByItsOwnSizeRule() {
    String header = """
                                       Compactions
        Level  Files Size(MB) Time(sec) Read(MB) Write(MB)
        --------------------------------------------------
        """;
    assertEquals(false, LevelDbStats.compactionOwed(header + "  0        3        3         0        0         3\n"
        + "  1        5       10         1       12        11\n"
        + "  3      500     1000         1       12        11\n"));
    assertEquals(true, LevelDbStats.compactionOwed(header + "  0        4        4         0        0         3\n"),
        "four files in level 0");
    assertEquals(true, LevelDbStats.compactionOwed(header + "  2       60      101         1       12        11\n"),
        "level 2 over 100 MiB");
    assertEquals(false, LevelDbStats.compactionOwed(header + "  6     9000    90000         1       12        11\n"),
        "the last level has no limit");
    assertEquals(false, LevelDbStats.compactionOwed(null));
  }
}

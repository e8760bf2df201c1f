package dev.cairn.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.cache.CacheStats;
import dev.cairn.compaction.dlc.LoadClass;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pins the layout of {@link Stats#toString()}, which tools and notes quote. */
class StatsTableTest {
  private static Stats sample(Stats.Dlc dlc) {
    return sample(dlc, Stats.Block.OFF, Stats.Buffer.OFF);
  }

  private static Stats sample(Stats.Dlc dlc, Stats.Block block, Stats.Buffer buffer) {
    return sample(dlc, block, buffer, List.of(), Double.NaN);
  }

  private static Stats sample(Stats.Dlc dlc, Stats.Block block, Stats.Buffer buffer, List<Stats.LevelReads> reads,
      double missMicros) {
    return new Stats(
        List.of(new Stats.LevelStats(0, 3, 3L << 20, 0.75, 0, 5L << 20),
            new Stats.LevelStats(1, 2, 10L << 20, 1.0, 8L << 20, 12L << 20, 1L << 20)),
        new Stats.Writes(20L << 20, 21L << 20, 38L << 20, 1.9),
        new Stats.Space(1.3, 1L << 20),
        new CacheStats(75, 25, 30, 5, 1L << 20, 8L << 20, 256, 1L << 20, 2, 1L << 19),
        new Stats.TableFiles(500, 5, 12, 64L << 20, 3L << 20, false, 5, 3L << 20, 4, 7),
        new Stats.Stalls(400_000, 7, 1_100_000, 1, 0, 0),
        new Stats.Memtable(512L << 10, 1),
        new Stats.Flush(4, 5L << 20, Stats.FlushCaching.pinned(Options.FlushCaching.NEVER)),
        new Stats.Compaction(3, 1, 0, 0, 2_000_000, 2, 8L << 20, 12L << 20, 0, 0, 0, 0, 0, 0),
        new Stats.Manifest(1L << 10, 0, 0),
        new Stats.Reads(4L << 20, reads, missMicros),
        new Stats.Latencies(new Stats.Latency(100, 10, 99, 120), new Stats.Latency(50, 2, 30, 40),
            new Stats.Latency(0, 0, 0, 0)),
        dlc,
        block,
        buffer,
        0,
        123);
  }

  @Test
  void thePointReadLinesFollowWhenReadsWereCounted() {
    Stats s = sample(Stats.Dlc.OFF, Stats.Block.OFF, Stats.Buffer.OFF,
        List.of(new Stats.LevelReads(40, 3, 0), new Stats.LevelReads(0, 0, 0), new Stats.LevelReads(55, 9, 2)), 137.25);
    assertEquals(sample(Stats.Dlc.OFF).toString()
        + "point-read misses      12 blocks read from the device, 137.3 us each on average\n"
        + "point reads L0         40 answered, 3 blocks read (0 from the buffer)\n"
        + "point reads L2         55 answered, 9 blocks read (2 from the buffer)\n",
        s.toString());
  }

  @Test
  void theReadCallsLineFollowsTheCompactionsWhenReadsWereCounted() {
    Stats none = sample(Stats.Dlc.OFF);
    Stats.LevelStats l1 = none.levels().get(1);
    Stats.LevelStats counted = new Stats.LevelStats(1, l1.files(), l1.bytes(), l1.score(), 8L << 20,
        l1.bytesWritten(), l1.deadBytes(), 0, 0, 512);
    Stats s = new Stats(List.of(none.levels().get(0), counted), none.writes(), none.space(), none.cache(),
        none.tableCache(), none.stalls(), none.memtable(), none.flush(), none.compaction(), none.manifest(),
        none.reads(), none.latency(), none.dlc(), none.block(), none.buffer(), none.liveSnapshots(),
        none.lastSequence());
    String flushes = none.toString().lines().filter(l -> l.startsWith("flushes / compactions")).findFirst().orElseThrow();
    assertEquals(none.toString().replace(flushes + "\n",
        flushes + "\ncompaction read calls  L1 512 (16.0 KiB each)\n"), s.toString());
  }

  @Test
  void theFlushCachingLineFollowsTheFlushesUnlessFlushesNeverCache() {
    Stats none = sample(Stats.Dlc.OFF);
    assertFalse(none.toString().contains("flush caching"), "no line when flushes never cache");
    for (Stats.FlushCaching caching : List.of(Stats.FlushCaching.pinned(Options.FlushCaching.ALWAYS),
        new Stats.FlushCaching(Options.FlushCaching.ADAPTIVE, true, 4.256, 3))) {
      Stats s = new Stats(none.levels(), none.writes(), none.space(), none.cache(), none.tableCache(), none.stalls(),
          none.memtable(), new Stats.Flush(4, 5L << 20, caching), none.compaction(), none.manifest(), none.reads(),
          none.latency(), none.dlc(), none.block(), none.buffer(), none.liveSnapshots(), none.lastSequence());
      String line = caching.mode() == Options.FlushCaching.ALWAYS ? "flush caching          always\n"
          : "flush caching          adaptive: on (recency 4.26, 3 switches)\n";
      String flushes = none.toString().lines().filter(l -> l.startsWith("flushes / compactions")).findFirst().orElseThrow();
      assertEquals(none.toString().replace(flushes + "\n", flushes + "\n" + line), s.toString());
    }
  }

  @Test
  void theManifestLineFollowsWhenEditsWereSynced() {
    Stats none = sample(Stats.Dlc.OFF);
    Stats s = new Stats(none.levels(), none.writes(), none.space(), none.cache(), none.tableCache(), none.stalls(),
        none.memtable(), none.flush(), none.compaction(), new Stats.Manifest(none.manifest().bytesWritten(), 8, 3_000),
        none.reads(), none.latency(), none.dlc(), none.block(), none.buffer(), none.liveSnapshots(),
        none.lastSequence());
    String line = "manifest syncs         8, 375.0 us each on average (the mutex released)\n";
    assertFalse(none.toString().contains("manifest syncs"), "no line before any sync");
    assertEquals(none.toString().replace("\nmemtable   ", "\n" + line + "memtable   "), s.toString());
  }

  @Test
  void sharedTableCacheBoundsAreReportedBesideWhatEveryDatabaseUnderThemKeeps() {
    Stats none = sample(Stats.Dlc.OFF);
    Stats s = new Stats(none.levels(), none.writes(), none.space(), none.cache(),
        new Stats.TableFiles(500, 5, 12, 64L << 20, 3L << 20, true, 420, 40L << 20, 480, 90), none.stalls(),
        none.memtable(), none.flush(), none.compaction(), none.manifest(), none.reads(), none.latency(), none.dlc(),
        none.block(), none.buffer(), none.liveSnapshots(), none.lastSequence());
    String own = "table cache            5 tables open, 12 opens, 3.00 MB of index and filter pinned (at most 64.00 MB),"
        + " 4 of 500 files open, 7 reopened\n";
    String shared = "table cache            5 tables open, 12 opens, 3.00 MB of index and filter pinned;"
        + " with the databases sharing its bounds 420 tables kept, 40.00 MB pinned (at most 64.00 MB),"
        + " 480 of 500 files open, 90 reopened\n";
    assertEquals(none.toString().replace(own, shared), s.toString());
  }

  @Test
  void rendersTheFixedTable() {
    Stats s = sample(Stats.Dlc.OFF);
    String expected = """
        Level  Files      Size(MB)  Score  Read(MB)  Write(MB)  Dead(MB)
        -----  -----  ------------  -----  --------  ---------  --------
        L0         3          3.00   0.75      0.00       5.00      0.00
        L1         2         10.00   1.00      8.00      12.00      1.00
        user bytes written            20.00 MB
        device bytes written          38.00 MB (wal 21.00, flush 5.00, compaction 12.00, manifest 0.00)
        write amplification            1.90
        space amplification            1.30 (14.00 MB of tables on disk, 1.00 MB of them obsolete and waiting for deletion)
        block cache                   75.00% hits (75 hits, 25 misses, 30 inserts, 5 evictions (2 while warm), 1.00 of 8.00 MB, window 0.50 MB)
        table cache            5 tables open, 12 opens, 3.00 MB of index and filter pinned (at most 64.00 MB), 4 of 500 files open, 7 reopened
        stalls                        1.500 s (7 slowdowns, 1 stops)
        stalls by cause        pace 0.400 s (7), L0 stop 1.100 s (1), memtable stop 0.000 s (0)
        flushes / compactions  4 / 3 (1 trivial moves, 2.000 s), 2 running
        memtable               0.50 MB, 1 immutable; 0 snapshots; last sequence 123
        get   latency (us)      p50 10.0  p99 99.0  max 120.0  (100 ops)
        put   latency (us)      p50 2.0  p99 30.0  max 40.0  (50 ops)
        scan  latency (us)      p50 0.0  p99 0.0  max 0.0  (0 ops)
        """;
    assertEquals(expected, s.toString());
    assertEquals(13L << 20, s.totalTableBytes());
    assertEquals(5, s.totalFiles());
  }

  @Test
  void theBlockCompactionLineFollowsOnlyUnderBlockStyle() {
    Stats base = sample(Stats.Dlc.OFF);
    Stats s = sample(Stats.Dlc.OFF, new Stats.Block(true, 7, 2, 30, 3L << 20, 1, List.of(
        new Stats.Choices(2, false, "FEW_DIRTY_BLOCKS", true, 7, 14L << 20, 3584, 30),
        new Stats.Choices(2, true, "HIGH_DIRTY_RATIO", false, 2, 4L << 20, 1024, 640))), Stats.Buffer.OFF);
    assertEquals(base.toString()
        + "block compaction       7 appended / 2 rewritten tables, 30 dirty blocks, 3.00 MB appended, 1 filter rebuilds\n"
        + "  into L2 upper FEW_DIRTY_BLOCKS         7 tables        14.00 MB, dirty ratio 0.008\n"
        + "  into L2 last  HIGH_DIRTY_RATIO         2 tables         4.00 MB, dirty ratio 0.625\n",
        s.toString());
  }

  @Test
  void theDlcLineFollowsTheLatenciesOnlyWhenDlcRuns() {
    Stats s = sample(new Stats.Dlc(true, LoadClass.HIGH, 52_500_000, 80_000_000, 12, 3, 1, 5, 20L << 20));
    String text = s.toString();
    assertEquals(sample(Stats.Dlc.OFF).toString()
        + "dlc                    HIGH load, client 52.50 MB/s, limiter 80.00 MB/s, 12 delayed, 3 part / 1 full runs\n",
        text);
  }

  @Test
  void theBufferLinesFollowOnlyWithTheCompactionBuffer() {
    Stats.Buffer buffer = new Stats.Buffer(true, 3L << 20, 4, 3, 2, List.of(0L, 1L << 20, 2L << 20), 9, 4, 3, 2, 6, 2, 3L << 19, 5,
        1,
        List.of(2), 17, 8, List.of(new Stats.BufferLevelReads(0, 0, 0), new Stats.BufferLevelReads(0, 0, 0),
            new Stats.BufferLevelReads(17, 4, 6)), 812.25, 0.1625);
    String text = sample(Stats.Dlc.OFF, Stats.Block.OFF, buffer).toString();
    // The buffer's 3 MB count among the tables on disk (13 MB of levels, 1 MB obsolete).
    assertEquals(sample(Stats.Dlc.OFF).toString().replace("(14.00 MB of tables", "(17.00 MB of tables")
        + "compaction buffer              3.00 MB in 4 files, 3 runs, 2 removed markers; frozen [2]\n"
        + "buffer traffic         9 appended, 4 cold left out, 3 trimmed, 2 shadowed, 6 evicted for space, 2 rewritten (1.50 MB freed) (5 trim passes, 1 freezes), 17 gets served, 8 files scanned from the buffer\n"
        + "buffer bound           0.1625 of the levels' bytes (a miss costs 812.3 us)\n"
        + "buffer reads L2        17 served, 4 stopped at a marker, 6 through to the level\n",
        text);
  }
}

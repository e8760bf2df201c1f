package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.testing.EngineCombo.CompactionStyle;
import dev.cairn.Stats;
import dev.cairn.compaction.buffer.BufferConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link Stats.Space#amplification()} counts every table byte the database keeps: held against the
 * directory's real {@code .sst} bytes under each style, the compaction buffer's files and block
 * compaction's dead bytes included (it once reported 1.52 for a directory five times its data).
 */
class SpaceAmplificationTest {
  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(CompactionStyle.class)
  void theFigureCountsEveryTableByteOnDisk(CompactionStyle style) throws Exception {
    Options options = Options.builder().memtableBytes(64 << 10).targetFileBytes(32 << 10)
        .baseLevelBytes(128 << 10).blockBytes(1024).blockCacheBytes(4 << 20)
        // Cold arrivals kept: the load reads nothing, and the buffer must hold files to be counted.
        .compaction(style.leveled(BufferConfig.defaults().withTrimIntervalMillis(3_600_000).withTrimPassesPerBaseLevel(0)
            .withMaxSpaceFraction(1000).withFullBoundMissMicros(0).withKeepColdArrivals(true))).build();
    try (Cairn db = Cairn.open(dir, options)) {
      Random random = new Random(11);
      for (int round = 0; round < 4; round++) {
        for (int i = 0; i < 4000; i++) {
          int k = round == 0 ? i : random.nextInt(4000);
          db.put(String.format("key%06d", k).getBytes(), new byte[100 + random.nextInt(100)]);
        }
      }
      db.flush();
      Settled settled = awaitSettled(db);
      Stats stats = settled.stats();
      long onDisk = settled.onDisk();
      assertEquals(onDisk, stats.diskTableBytes(), "table bytes on disk against the directory (" + style + "): " + stats);
      long lastLevel = stats.levels().stream().mapToLong(Stats.LevelStats::bytes).filter(b -> b > 0)
          .reduce((a, b) -> b).orElseThrow();
      assertEquals((double) onDisk / lastLevel, stats.space().amplification(), 1e-9, style.toString());
      if (style == CompactionStyle.BUFFER) {
        assertTrue(stats.buffer().bytes() > 0, "the buffer holds files, so the test covers them: " + stats);
        assertTrue(stats.space().amplification() > (double) stats.totalTableBytes() / lastLevel);
      }
    }
  }

  private record Settled(Stats stats, long onDisk) {}

  /**
   * Waits until no compaction runs and the figures agree with the directory on two polls in a
   * row, and returns the second. Obsolete files are deleted, and compactions still due are
   * started, in the background after the load, so a single agreeing poll can be followed by a
   * compaction that makes the next directory listing differ; two equal polls with nothing running
   * are a quiet moment. Returns the last poll when none comes, for the caller's assertion to show.
   */
  private Settled awaitSettled(Cairn db) throws Exception {
    Settled last = null;
    int agreeing = 0;
    for (int i = 0; i < 800; i++) {
      Stats stats = db.stats();
      long onDisk = sstBytes();
      boolean agrees = stats.compaction().running() == 0 && stats.memtable().immutables() == 0
          && stats.diskTableBytes() == onDisk;
      agreeing = agrees && last != null && last.onDisk() == onDisk ? agreeing + 1 : agrees ? 1 : 0;
      last = new Settled(stats, onDisk);
      if (agreeing >= 2) {
        return last;
      }
      Thread.sleep(25);
    }
    return last;
  }

  private long sstBytes() throws IOException {
    long sum = 0;
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.filter(p -> p.getFileName().toString().endsWith(".sst")).toList()) {
        try {
          sum += Files.size(p);
        } catch (NoSuchFileException e) {
          // deleted by a background collection between the listing and the size: not on disk
        }
      }
    }
    return sum;
  }
}

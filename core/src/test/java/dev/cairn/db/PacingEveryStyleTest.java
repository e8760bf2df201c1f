package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.compaction.block.BlockCompactionConfig;
import dev.cairn.compaction.buffer.BufferConfig;
import dev.cairn.compaction.dlc.DlcConfig;
import dev.cairn.config.CompactionSettings;
import dev.cairn.db.compact.CompactionThrottle;
import dev.cairn.fs.IoPurpose;
import dev.cairn.fs.IoStats;
import dev.cairn.testing.EngineCombo.CompactionStyle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * DLC's throttle paces every compaction of every style: by the time the database closes, every
 * byte compactions read or wrote has been charged to it. Block compaction's merges once went
 * unpaced (only table compaction called the throttle); with forced block merges most of this
 * test's compaction bytes are theirs.
 */
class PacingEveryStyleTest {
  @TempDir Path dir;

  private static Options options(CompactionStyle style) {
    CompactionSettings.LeveledExecution execution = style == CompactionStyle.BLOCK
        ? BlockCompactionTest.forcedBlocks(BlockCompactionConfig.defaults().withForceBlock(true))
        : style.execution(BufferConfig.defaults());
    return Options.builder()
        .compaction(CompactionSettings.leveled(execution, DlcConfig.builder()
            .intervalMillis(3_600_000) // the monitor never ticks: the initial rate stays
            .ioHighLimitBytesPerSecond(800_000_000)
            .ioLowLimitBytesPerSecond(400_000_000)
            .build()))
        .memtableBytes(64 << 10)
        .blockBytes(512)
        .targetFileBytes(64 << 10)
        .baseLevelBytes(1 << 20)
        .backgroundThreads(2)
        .build();
  }

  private static byte[] key(int i) {
    return String.format("key%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @EnumSource(CompactionStyle.class)
  void everyCompactionByteIsCharged(CompactionStyle style) {
    Options options = options(style);
    CompactionThrottle throttle;
    Stats stats;
    try (Cairn cairn = Cairn.open(dir, options)) {
      DbImpl db = (DbImpl) cairn;
      throttle = (CompactionThrottle) db.compactions().scheduler().pacer();
      for (int i = 0; i < 6000; i += 2) {
        cairn.put(key(i), ("base" + i).getBytes(StandardCharsets.UTF_8));
      }
      cairn.compactRange(null, null);
      for (int round = 0; round < 3; round++) {
        for (int i = 1 + round; i < 6000; i += 397) {
          cairn.put(key(i), ("new" + i).getBytes(StandardCharsets.UTF_8));
        }
        cairn.compactRange(null, null);
      }
      stats = cairn.stats();
    }
    IoStats io = options.fileSystem().ioStats();
    long moved = io.bytesRead(IoPurpose.COMPACTION) + io.bytesWritten(IoPurpose.COMPACTION);
    assertTrue(moved > 0, "the workload compacts");
    if (style == CompactionStyle.BLOCK) {
      assertTrue(stats.block().appendedTables() > 0, "block merges ran: " + stats.block());
    }
    assertEquals(moved, throttle.chargedBytes(), style + ": compaction bytes moved vs charged to the throttle");
  }
}

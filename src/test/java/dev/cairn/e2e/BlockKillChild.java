package dev.cairn.e2e;

import dev.cairn.Cairn;
import dev.cairn.Options;
import dev.cairn.WriteOptions;
import dev.cairn.compaction.block.BlockCompactionConfig;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The child process of {@link BlockKillTest}: {@link KillChild}'s workload under block compaction
 * forced on every level, with overwrites of earlier keys so that compactions append merged dirty
 * blocks to existing tables (rather than only adding new keys at the end).
 */
public final class BlockKillChild {
  private BlockKillChild() {}

  static Options options() {
    return Options.builder()
        .compactionStyle(Options.CompactionStyle.BLOCK)
        .blockCompaction(BlockCompactionConfig.defaults().withForceBlock(true).withLazyDeletionBytes(256 << 10))
        .memtableBytes(64 << 10)
        .blockBytes(512)
        .targetFileBytes(32 << 10)
        .baseLevelBytes(128 << 10)
        .l0CompactionTrigger(2)
        .backgroundThreads(3)
        .build();
  }

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    long start = Long.parseLong(args[1]);
    PrintStream out = new PrintStream(System.out, true);
    Cairn db = Cairn.open(dir, options());
    out.println("open");
    for (long i = start; ; i++) {
      db.put(KillTest.key(i), KillTest.value(i), WriteOptions.SYNC);
      out.println(i);
      for (int j = 0; j < 5; j++) {
        // Filler over a fixed key space: overwrites that dirty blocks of deeper tables.
        db.put(KillTest.fillerKey(i % 997, j), KillTest.value(i * 10 + j), WriteOptions.NO_SYNC);
      }
    }
  }
}

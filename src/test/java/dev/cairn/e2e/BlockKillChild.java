package dev.cairn.e2e;

import dev.cairn.Options;
import dev.cairn.compaction.block.BlockCompactionConfig;

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
    // Filler over a fixed key space: overwrites that dirty blocks of deeper tables.
    KillChild.run(args, options(), KillChild.NOTHING, (db, i) -> KillChild.filler(db, i, i % 997, 5));
  }
}

package dev.cairn.db.compact;

import dev.cairn.Stats;
import dev.cairn.compaction.block.BlockMerge;
import dev.cairn.config.CompactionSettings;
import dev.cairn.db.base.Engine;

/**
 * BlockDB's block compaction (docs/compaction.md, "Block compaction"): a merge with targets runs
 * as a {@link BlockCompactionJob}, which appends the dirty blocks to the targets the selective
 * rule picks and rewrites the others; every other plan runs as table compaction. Obsolete files
 * are deleted lazily, in batches of the configured size (BlockDB section IV-C).
 */
public final class BlockStyle extends TableStyle {
  private final BlockCompactionCounters counters = new BlockCompactionCounters();
  private final CompactionSettings.Block settings;

  public BlockStyle(Engine engine, CompactionSettings.Block settings) {
    super(engine);
    this.settings = settings;
  }

  @Override
  public CompactionExecution execution(Compactions.Claimed claimed, CompactionPacer pacer) {
    if (BlockMerge.runsAsBlockMerge(claimed.plan(), settings.policy())) {
      return new BlockCompactionJob(engine, settings, tableOptions(), claimed.plan(), claimed.shape(), counters, pacer);
    }
    return super.execution(claimed, pacer);
  }

  /** {@code Options.obsoleteFileBatchBytes} when set, else the lazy-deletion threshold. */
  @Override
  public long obsoleteFileBatchBytes() {
    long set = super.obsoleteFileBatchBytes();
    return set > 0 ? set : settings.io().lazyDeletionBytes();
  }

  @Override
  public Stats.Block blockStats() {
    return counters.snapshot(true);
  }
}

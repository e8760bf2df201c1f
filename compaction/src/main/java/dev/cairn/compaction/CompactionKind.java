package dev.cairn.compaction;

/**
 * What a plan asks the executor to do. {@link #persistentId()} may be written to a manifest or a
 * log; ids are never reused or renumbered.
 */
public enum CompactionKind {
  /** Re-parent one input file to the output level; no bytes are read or written. */
  TRIVIAL_MOVE(1),
  /** Merge inputs and overlapping output-level files into new tables (LevelDB's compaction). */
  TABLE_MERGE(2),
  /**
   * Reserved, not yet produced: BlockDB block compaction — rewrite only the dirty blocks of each
   * target table and append them at the table's tail (BlockDB Algorithms 1-3, chosen per target
   * by Algorithm 4).
   */
  BLOCK_MERGE(3),
  /**
   * Reserved, not yet produced: LSbM buffered merge — after merging, append the input files to
   * the output level's compaction-buffer list instead of deleting them (LSbM Algorithm 1).
   */
  BUFFER_APPEND(4),
  /**
   * Reserved, not yet produced: LSbM trim — drop buffer-list files whose cached fraction fell
   * below the threshold (LSbM Algorithm 2).
   */
  BUFFER_TRIM(5),
  /**
   * Merge L0 files into one L0 file (DLC's "resume part" bursty compaction, section 5),
   * relieving read amplification while L0-to-L1 is delayed. Produced by {@link
   * dev.cairn.compaction.dlc.DlcScheduler}: the inputs are the newest contiguous run of L0 files,
   * so the output takes their place in L0's newest-first order.
   */
  L0_TO_L0(6);

  private final int persistentId;

  CompactionKind(int persistentId) {
    this.persistentId = persistentId;
  }

  public int persistentId() {
    return persistentId;
  }

  public static CompactionKind fromPersistentId(int id) {
    for (CompactionKind kind : values()) {
      if (kind.persistentId == id) {
        return kind;
      }
    }
    throw new IllegalArgumentException("unknown compaction kind id " + id);
  }
}

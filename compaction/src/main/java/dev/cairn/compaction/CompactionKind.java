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
  // Ids 3, 4 and 5 are retired (once reserved for a block merge, a buffer append and a buffer
  // trim, none of which is a plan: block compaction executes a TABLE_MERGE, the buffer changes
  // every compaction's edit, the trim is the buffer's own pass). Never reuse them.
  /**
   * Merge L0 files into one L0 file (DLC's "resume part" bursty compaction, section 5),
   * relieving read amplification while L0-to-L1 is delayed. Produced by {@link
   * dev.cairn.compaction.dlc.DlcScheduler}: the inputs are the newest contiguous run of L0 files,
   * so the output takes their place in L0's newest-first order.
   */
  L0_TO_L0(6),
  /**
   * Re-parent every input, unchanged, to the output level, which holds nothing: two-phase
   * compaction's end of a round, when a level's insertion part becomes its deletion part
   * ({@link dev.cairn.compaction.dlsm.TwoPhaseCompactionPicker}). No bytes are read or written.
   */
  LEVEL_MOVE(7),
  /**
   * Delete every input, unread and unrewritten: each lies wholly under a range tombstone newer
   * than all its entries, which every reader that could see one of them also sees (Pebble's
   * delete-only compaction). Input and output level are the same; there are no targets and no
   * outputs. Planned by core, which knows the tombstones, never by a picker.
   */
  DELETE_ONLY(8);

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

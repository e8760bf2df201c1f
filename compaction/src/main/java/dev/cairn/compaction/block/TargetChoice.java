package dev.cairn.compaction.block;

/**
 * How one target table of a compaction is compacted, and why (for logs and tests).
 *
 * @param fileId the target table
 * @param mode table or block compaction
 * @param reason the rule that decided
 */
public record TargetChoice(long fileId, Mode mode, Reason reason) {
  /** Rewrite the whole table into new tables, or append merged dirty blocks to it. */
  public enum Mode { TABLE, BLOCK }

  /** Which line of Alg. 4 (or which of our additions) decided. */
  public enum Reason {
    /** Compactions out of L0 are table compactions (L0 files overlap; paper section IV-A). */
    FROM_L0,
    /** The append would grow the table past its level's size cap. */
    TOO_LARGE,
    /** Too much of the file is garbage already. */
    LOW_VALID_RATIO,
    /** Too many blocks are dirty: an append would rewrite most of the table anyway. */
    HIGH_DIRTY_RATIO,
    /** The append would leave less of the table valid than its level allows. */
    VALID_FLOOR,
    /** Few dirty blocks: append. */
    FEW_DIRTY_BLOCKS,
    /** {@link BlockCompactionConfig#forceBlock()} (tests). */
    FORCED
  }
}

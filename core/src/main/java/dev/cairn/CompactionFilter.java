package dev.cairn;

import java.util.Objects;

/**
 * Decides, as a compaction rewrites a key's newest value, whether the value stays, goes or
 * changes: RocksDB's {@code CompactionFilter}. Set with {@link Options.Builder#compactionFilter};
 * one instance serves every compaction, from background threads at once, so it must be
 * thread-safe, and it must decide the same way for the same key and value every time it is
 * asked (a key may be offered again by every later compaction that rewrites it).
 *
 * <p><b>What it is offered</b>: the newest value of each user key that a table, block or buffered
 * compaction reads and rewrites, and that no open snapshot can see (a snapshot's view never
 * changes under it: with snapshots open, only values written after the newest of them are
 * offered). Tombstones are not offered. Flushes do not call it, nor do the moves of whole tables
 * to another level, nor block compaction's clean blocks, which it keeps without reading: an entry
 * is filtered when a compaction rewrites it, so a value the filter would remove stays readable
 * until then ({@link Cairn#compactRange} rewrites everything in its range, and so filters it,
 * above the deepest level that holds the range, and of the deepest level's own tables those that
 * hold range tombstones; the deepest level's other tables are
 * filtered when a compaction next rewrites them).
 *
 * <p><b>Snapshots keep their view</b>: a compaction that changed a value that a snapshot taken
 * while it ran can see is discarded and runs again, and a new snapshot waits while a filtered
 * compaction's result is being installed. (RocksDB, since 6.0, lets such a snapshot see the
 * change.) After two compactions in a row were discarded so, the next runs without the filter
 * until one installs, so that snapshots opened all the time cannot stop compactions; the values
 * it would have changed wait for a later compaction.
 *
 * <p><b>What a decision does</b>: {@link Decision#KEEP} nothing; {@link Decision#REMOVE} turns the
 * value into a tombstone with its sequence, so that older values of the key below stay hidden
 * (the tombstone itself goes once nothing older lies below, as any tombstone does); {@link
 * Decision#change} replaces the value, keeping its sequence. If {@link #filter} throws, the
 * compaction fails and the database stops writing, as on an I/O error ({@link
 * BackgroundErrorException}): nothing it was rewriting is lost.
 */
@FunctionalInterface
public interface CompactionFilter {
  /**
   * The decision for {@code value}, the newest value of {@code key}. The arrays are the
   * compaction's: read them, do not keep or modify them.
   */
  Decision filter(Context context, byte[] key, byte[] value);

  /**
   * Where the compaction writes: its output {@code level}, and whether that is {@code bottommost}
   * (no older data for the compaction's keys lies below it).
   */
  record Context(int level, boolean bottommost) {}

  /** What becomes of an offered value. */
  final class Decision {
    /** The value stays as it is. */
    public static final Decision KEEP = new Decision(null);
    /** The value is deleted: the key reads as absent from then on (snapshots aside). */
    public static final Decision REMOVE = new Decision(null);

    private final byte[] newValue;

    private Decision(byte[] newValue) {
      this.newValue = newValue;
    }

    /**
     * The value is replaced by {@code newValue} (copied; at most {@link Options#MAX_VALUE_BYTES}).
     *
     * @throws IllegalArgumentException if {@code newValue} is null or too long
     */
    public static Decision change(byte[] newValue) {
      Objects.requireNonNull(newValue, "a changed value must not be null (Decision.REMOVE deletes the key)");
      if (newValue.length > Options.MAX_VALUE_BYTES) {
        throw new IllegalArgumentException("a changed value of " + newValue.length + " bytes is over the limit of "
            + Options.MAX_VALUE_BYTES);
      }
      return new Decision(newValue.clone());
    }

    /** The replacement value of a {@link #change} decision (a copy), or null for KEEP and REMOVE. */
    public byte[] newValue() {
      return newValue == null ? null : newValue.clone();
    }

    @Override
    public String toString() {
      return this == KEEP ? "KEEP" : this == REMOVE ? "REMOVE" : "change(" + newValue.length + " bytes)";
    }
  }
}

package dev.cairn.db.compact;

/**
 * Paces compaction I/O. Every compaction loop of every style calls {@link #pace()} as it goes
 * (every {@link #ENTRIES_PER_PACE} entries it reads or writes, and once per table it appends
 * to); the scheduler decides what a call costs: nothing with the immediate scheduler, a wait on
 * DLC's token bucket ({@link CompactionThrottle}) with DLC. A job never knows which.
 */
public interface CompactionPacer {
  /** Jobs call {@link #pace()} this often (entries), so a pacer is not a hot lock. */
  int ENTRIES_PER_PACE = 64;

  /** The pacer of unthrottled compactions. */
  CompactionPacer UNPACED = () -> {};

  /** Charges the compaction I/O done since the last call; may block while over the rate. */
  void pace();
}

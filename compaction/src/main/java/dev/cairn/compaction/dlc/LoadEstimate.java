package dev.cairn.compaction.dlc;

/**
 * What the load model concluded after one interval.
 *
 * @param intervals intervals observed so far (0: no estimate yet, only a baseline)
 * @param intervalNanos the measured length of the last interval
 * @param clientBytesPerSecond the client's estimated device bandwidth (Eq. 6 or Eq. 3)
 * @param load the class after applying the limits and the softness (section 3.2.2)
 * @param lowStreak consecutive intervals below {@code io_low_limit}, the last included
 * @param compactionBytesPerSecond the rate compaction reads plus writes may use (Eq. 2, floored)
 */
public record LoadEstimate(
    long intervals,
    long intervalNanos,
    double clientBytesPerSecond,
    LoadClass load,
    int lowStreak,
    double compactionBytesPerSecond) {}

package dev.cairn;

/**
 * Settings of the LSbM compaction buffer ({@link Options.CompactionStyle#BUFFER}; see
 * docs/compaction.md, "Compaction buffer"). Defaults are the LSbM paper's.
 *
 * @param trimIntervalMillis how often the trim task drops cold files from the buffer (the paper:
 *     30 s)
 * @param trimCachedFraction a buffer file stays (outside the newest buffer table) only while at
 *     least this fraction of its blocks is in the block cache (the paper: 0.8)
 * @param freezeRepeatedFraction a level's buffer freezes when the bytes merged into the level
 *     during its current round exceed the level's size by more than this fraction of it
 *     (then repeated keys must have been dropped: LSbM section 4.1), until the level's compaction
 *     pointer wraps around
 */
public record BufferConfig(long trimIntervalMillis, double trimCachedFraction, double freezeRepeatedFraction) {
  public BufferConfig {
    if (trimIntervalMillis < 1 || trimIntervalMillis > 24L * 3600 * 1000) {
      throw new IllegalArgumentException("buffer trimIntervalMillis out of range [1, 1 day]: " + trimIntervalMillis);
    }
    if (!(trimCachedFraction >= 0 && trimCachedFraction <= 1)) {
      throw new IllegalArgumentException("buffer trimCachedFraction out of range [0, 1]: " + trimCachedFraction);
    }
    if (!(freezeRepeatedFraction >= 0 && freezeRepeatedFraction <= 1)) {
      throw new IllegalArgumentException("buffer freezeRepeatedFraction out of range [0, 1]: " + freezeRepeatedFraction);
    }
  }

  /** 30 s trim interval, 80% cached threshold, freeze at 10% repeated bytes. */
  public static BufferConfig defaults() {
    return new BufferConfig(30_000, 0.8, 0.1);
  }

  public BufferConfig withTrimIntervalMillis(long v) {
    return new BufferConfig(v, trimCachedFraction, freezeRepeatedFraction);
  }

  public BufferConfig withTrimCachedFraction(double v) {
    return new BufferConfig(trimIntervalMillis, v, freezeRepeatedFraction);
  }

  public BufferConfig withFreezeRepeatedFraction(double v) {
    return new BufferConfig(trimIntervalMillis, trimCachedFraction, v);
  }
}

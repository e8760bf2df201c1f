package dev.cairn.compaction.leveled;

/**
 * Which file of a due level {@code n >= 1} a compaction starts from (L0 always starts round-robin:
 * its plan takes every overlapping L0 file anyway).
 */
public enum CompactionPriority {
  /**
   * LevelDB's: the first file after the level's compaction pointer, wrapping. Every range is
   * compacted in turn, whatever it costs; the compaction buffer's rounds follow this sweep.
   */
  ROUND_ROBIN,
  /**
   * RocksDB's {@code kMinOverlappingRatio} (its default since 6.x): the file whose range overlaps
   * the fewest bytes of level {@code n + 1} for its own size first, ties round-robin. Each
   * compaction then rewrites the least data below for the bytes it moves down, which lowers the
   * write amplification of a random-key load (a sparse range of the next level is merged into
   * before a dense one); ranges that are costly to merge wait until they are the cheapest.
   */
  MIN_OVERLAP;

  /** The name used in settings and reports: {@code round-robin}, {@code min-overlap}. */
  public String settingName() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }

  /** The priority named {@code name} ({@link #settingName}); a clear exception otherwise. */
  public static CompactionPriority fromSettingName(String name) {
    for (CompactionPriority p : values()) {
      if (p.settingName().equals(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException("unknown compaction priority '" + name + "': round-robin or min-overlap");
  }
}

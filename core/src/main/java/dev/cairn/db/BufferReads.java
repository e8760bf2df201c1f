package dev.cairn.db;

import dev.cairn.Options;
import dev.cairn.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * How the point reads of each level with a compaction buffer ended (docs/execution.md, "Reads"):
 * a buffer file answered, a removed marker stopped the walk, or the walk found nothing; in the
 * last two the level's own file was read. The split tells where a buffer loses its reads: walks
 * stopped at markers read the level's newest, least cached files.
 */
final class BufferReads {
  /** For reads no one counts (internal lookups). */
  static final BufferReads UNCOUNTED = new BufferReads();

  private final LongAdder[] served = adders();
  private final LongAdder[] stoppedAtMarker = adders();
  private final LongAdder[] fellThrough = adders();

  private static LongAdder[] adders() {
    LongAdder[] out = new LongAdder[Options.MAX_LEVELS];
    for (int i = 0; i < out.length; i++) {
      out[i] = new LongAdder();
    }
    return out;
  }

  void served(int level) {
    served[level].increment();
  }

  void stoppedAtMarker(int level) {
    stoppedAtMarker[level].increment();
  }

  void fellThrough(int level) {
    fellThrough[level].increment();
  }

  long servedTotal() {
    long sum = 0;
    for (LongAdder a : served) {
      sum += a.sum();
    }
    return sum;
  }

  /** The counts of levels 0 to {@code levels - 1}. */
  List<Stats.BufferLevelReads> byLevel(int levels) {
    List<Stats.BufferLevelReads> out = new ArrayList<>(levels);
    for (int level = 0; level < levels; level++) {
      out.add(new Stats.BufferLevelReads(served[level].sum(), stoppedAtMarker[level].sum(), fellThrough[level].sum()));
    }
    return List.copyOf(out);
  }
}

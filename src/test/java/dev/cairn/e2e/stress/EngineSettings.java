package dev.cairn.e2e.stress;

import dev.cairn.Options;
import dev.cairn.testing.EngineCombo;
import java.util.Random;

/**
 * Engine options of one crash-test cycle. Small memtables, files and levels so that a second of
 * writing runs memtable switches, flushes, L0 stalls and compactions down several levels; some
 * values vary per cycle (drawn by {@link #random}) so reopening under different settings is
 * exercised too. The compaction style and level layout ({@link EngineCombo}) are fixed for a run.
 */
record EngineSettings(
    EngineCombo combo,
    long memtableBytes,
    int maxImmutableMemtables,
    int blockBytes,
    int bloomBitsPerKey,
    int l0CompactionTrigger,
    int levelSizeRatio,
    long blockCacheBytes,
    int backgroundThreads,
    long obsoleteFileBatchBytes) {

  static EngineSettings random(EngineCombo combo, Random r) {
    return new EngineSettings(
        combo,
        (64 << 10) * (1 + r.nextInt(2)),
        1 + r.nextInt(3),
        r.nextBoolean() ? 512 : 4096,
        r.nextInt(4) == 0 ? 0 : 10,
        2 + r.nextInt(3),
        2 + r.nextInt(3),
        r.nextInt(3) == 0 ? 0 : 1 << 20,
        1 + r.nextInt(3),
        r.nextBoolean() ? 0 : 256 << 10);
  }

  Options toOptions() {
    // The style's settings come from EngineCombo, shared with the other reliability tests: under
    // BLOCK, appends on every level >= 1, so that kills land in the middle of appends; under
    // BUFFER, a 10 ms trim, so that kills land in trims too.
    return combo.apply(Options.builder()
        .memtableBytes(memtableBytes)
        .maxImmutableMemtables(maxImmutableMemtables)
        .blockBytes(blockBytes)
        .bloomBitsPerKey(bloomBitsPerKey)
        .l0CompactionTrigger(l0CompactionTrigger)
        .l0SlowdownTrigger(l0CompactionTrigger + 2)
        .l0StopTrigger(l0CompactionTrigger + 6)
        .levelSizeRatio(levelSizeRatio)
        .baseLevelBytes(128 << 10)
        .targetFileBytes(32 << 10)
        .tableCacheFiles(64)
        .blockCacheBytes(blockCacheBytes)
        .backgroundThreads(backgroundThreads)
        .obsoleteFileBatchBytes(obsoleteFileBatchBytes))
        .build();
  }

  /** The command-line form read back by {@link #parse}. */
  String toArg() {
    return combo + ":" + memtableBytes + ":" + maxImmutableMemtables + ":" + blockBytes + ":"
        + bloomBitsPerKey + ":" + l0CompactionTrigger + ":" + levelSizeRatio + ":" + blockCacheBytes + ":"
        + backgroundThreads + ":" + obsoleteFileBatchBytes;
  }

  static EngineSettings parse(String arg) {
    String[] p = arg.split(":");
    return new EngineSettings(EngineCombo.parse(p[0]), Long.parseLong(p[1]), Integer.parseInt(p[2]),
        Integer.parseInt(p[3]), Integer.parseInt(p[4]), Integer.parseInt(p[5]), Integer.parseInt(p[6]),
        Long.parseLong(p[7]), Integer.parseInt(p[8]), Long.parseLong(p[9]));
  }
}

package dev.cairn;

import dev.cairn.compaction.dlc.DlcConfig;
import dev.cairn.config.CompactionSettings;

/** The checks {@link Options.Builder#build()} makes, each naming the option it refuses. */
final class OptionChecks {
  private OptionChecks() {}

  /** Every check of {@link Options.Builder#build()}, in order: the first bad option throws. */
  static void validate(Options.Builder b) {
    range("memtableBytes", b.memtableBytes, 64 << 10, 1L << 30);
    range("maxImmutableMemtables", b.maxImmutableMemtables, 1, 64);
    range("blockBytes", b.blockBytes, 256, 1 << 20);
    range("blockRestartInterval", b.blockRestartInterval, 1, 1024);
    range("bloomBitsPerKey", b.bloomBitsPerKey, 0, 64);
    range("l0CompactionTrigger", b.l0CompactionTrigger, 1, 1000);
    range("l0SlowdownTrigger", b.l0SlowdownTrigger, b.l0CompactionTrigger, 1000);
    range("l0StopTrigger", b.l0StopTrigger, b.l0SlowdownTrigger, 1000);
    range("delayedWriteBytesPerSecond", b.delayedWriteBytesPerSecond, 16 << 10, 1L << 40);
    range("levelSizeRatio", b.levelSizeRatio, 2, 1000);
    if (b.baseLevelBytes != Options.DERIVED) {
      range("baseLevelBytes", b.baseLevelBytes, 64 << 10, 1L << 40);
    }
    if (b.targetFileBytes != Options.DERIVED) {
      range("targetFileBytes", b.targetFileBytes, 16 << 10, 1L << 36);
    }
    range("blockCacheBytes", b.blockCacheBytes, 0, 1L << 44);
    if (b.tableCacheFiles != Options.DERIVED) {
      range("tableCacheFiles", b.tableCacheFiles, 16, 1_000_000);
    }
    if (b.tableCacheBytes != Options.DERIVED) {
      range("tableCacheBytes", b.tableCacheBytes, 64 << 10, 1L << 40);
    }
    range("backgroundThreads", b.backgroundThreads, 1, 64);
    range("obsoleteFileBatchBytes", b.obsoleteFileBatchBytes, 0, Long.MAX_VALUE);
    range("bytesPerSync", b.bytesPerSync, 0, Long.MAX_VALUE);
    present("blockCacheEvictionPolicy", b.blockCacheEvictionPolicy);
    present("walRecoveryMode", b.walRecoveryMode);
    present("flushCaching", b.flushCaching);
    present("compaction", b.compaction);
    present("clock", b.clock);
    ttl(b.ttl, b.mergeOperator);
    present("compression (Compression.none() for none)", b.compression);
    dlcActsBeforeStalls(b.compaction, b.l0SlowdownTrigger);
  }

  static void present(String name, Object value) {
    if (value == null) {
      throw new IllegalArgumentException("option " + name + " must not be null");
    }
  }

  /** Bursty compaction must act before the stall triggers do: stalls are the last resort. */
  static void dlcActsBeforeStalls(CompactionSettings compaction, int l0SlowdownTrigger) {
    if (compaction instanceof CompactionSettings.Leveled leveled
        && leveled.scheduler() instanceof CompactionSettings.Dlc dlc) {
      DlcConfig c = dlc.config();
      range("dlc.fullTriggerL0Files", c.fullTriggerL0Files(), 2, l0SlowdownTrigger - 1);
      range("dlc.partTriggerFreshFiles", c.partTriggerFreshFiles(), 2, c.fullTriggerL0Files() - 1);
    }
  }

  /** A TTL is a whole number of seconds that fits the write time, and takes no merges. */
  static void ttl(java.time.Duration ttl, MergeOperator mergeOperator) {
    if (ttl == null) {
      return;
    }
    range("ttl (seconds)", ttl.getSeconds(), 1, Integer.MAX_VALUE);
    if (mergeOperator != null) {
      throw new IllegalArgumentException("options ttl and mergeOperator cannot be combined: a database with a"
          + " time to live takes no merges");
    }
  }

  static void range(String name, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          "option " + name + " = " + value + " is out of range [" + min + ", " + max + "]");
    }
  }
}

package dev.cairn;

/** Renders {@link Options} as its {@code toString} returns them. */
final class OptionsText {
  private OptionsText() {}

  static String render(Options o, boolean baseLevelDerived, boolean targetFileDerived, boolean tableFilesDerived,
      boolean tableBytesDerived) {
    return "Options{memtableBytes=" + o.memtableBytes()
        + ", maxImmutableMemtables=" + o.maxImmutableMemtables()
        + ", blockBytes=" + o.blockBytes() + ", blockRestartInterval=" + o.blockRestartInterval()
        + ", bloomBitsPerKey=" + o.bloomBitsPerKey() + ", l0CompactionTrigger=" + o.l0CompactionTrigger()
        + ", l0SlowdownTrigger=" + o.l0SlowdownTrigger() + ", l0StopTrigger=" + o.l0StopTrigger()
        + ", delayedWriteBytesPerSecond=" + o.delayedWriteBytesPerSecond()
        + ", levelSizeRatio=" + o.levelSizeRatio() + ", baseLevelBytes=" + o.baseLevelBytes()
        + (baseLevelDerived ? " (derived)" : "")
        + ", targetFileBytes=" + o.targetFileBytes() + (targetFileDerived ? " (derived)" : "")
        + ", blockCacheBytes=" + o.blockCacheBytes()
        + ", blockCacheEvictionPolicy=" + o.blockCacheEvictionPolicy()
        + ", tableCacheFiles=" + o.tableCacheFiles() + (tableFilesDerived ? " (derived)" : "")
        + ", tableCacheBytes=" + o.tableCacheBytes() + (tableBytesDerived ? " (derived)" : "")
        + ", syncWrites=" + o.syncWrites()
        + ", backgroundThreads=" + o.backgroundThreads() + ", compaction=" + o.compaction()
        + ", walRecoveryMode=" + o.walRecoveryMode()
        + ", obsoleteFileBatchBytes=" + o.obsoleteFileBatchBytes() + ", flushCaching=" + o.flushCaching()
        + ", compression=" + o.compression() + ", bottommostCompression=" + o.bottommostCompression()
        + ", bytesPerSync=" + o.bytesPerSync() + ", alignCompactionOutputs=" + o.alignCompactionOutputs()
        + (o.compactionFilter() == null ? "" : ", compactionFilter=" + o.compactionFilter())
        + (o.ttl() == null ? "" : ", ttl=" + o.ttl())
        + (o.mergeOperator() == null ? "" : ", mergeOperator=" + o.mergeOperator().name()) + "}";
  }
}

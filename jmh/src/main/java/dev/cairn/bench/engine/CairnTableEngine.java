package dev.cairn.bench.engine;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.fs.IoPurpose;
import dev.cairn.fs.IoStats;
import dev.cairn.fs.LocalFileSystem;
import java.nio.file.Path;
import java.util.List;

/**
 * Cairn with table (LevelDB-style leveled) compaction, through its public API only. Device and
 * compaction writes come from the filesystem layer's {@link IoStats}, which counts every byte
 * the engine writes by purpose; direct reads use {@link LocalFileSystem}'s O_DIRECT mode.
 */
public final class CairnTableEngine implements BenchEngine {
  private Cairn db;
  private IoStats io;

  /** The compaction style; the block and buffer engines will differ only here. */
  Options.CompactionStyle compactionStyle() {
    return Options.CompactionStyle.TABLE;
  }

  @Override
  public void open(Path dir, EngineSettings s) {
    Options options = Options.builder()
        .createIfMissing(true)
        .errorIfExists(true)
        .memtableBytes(s.memtableBytes())
        .blockBytes(s.blockBytes())
        .bloomBitsPerKey(s.bloomBitsPerKey())
        .blockCacheBytes(s.blockCacheBytes())
        .baseLevelBytes(s.baseLevelBytes())
        .levelSizeRatio(s.levelSizeRatio())
        .targetFileBytes(s.targetFileBytes())
        .compactionStyle(compactionStyle())
        .fileSystem(new LocalFileSystem(s.directReads()))
        .build();
    io = options.fileSystem().ioStats();
    db = Cairn.open(dir, options);
  }

  @Override
  public void put(byte[] key, byte[] value) {
    db.put(key, value);
  }

  @Override
  public byte[] get(byte[] key) {
    return db.get(key);
  }

  @Override
  public int scan(byte[] from, int limit) {
    int n = 0;
    try (CairnIterator it = db.iterator()) {
      for (it.seek(from); it.isValid() && n < limit; it.next()) {
        it.key();
        it.value();
        n++;
      }
    }
    return n;
  }

  @Override
  public void flush() {
    db.flush();
  }

  @Override
  public EngineMetrics metrics() {
    Stats stats = db.stats();
    return new EngineMetrics(
        blockCacheDataHits(stats),
        blockCacheDataMisses(stats),
        io.totalBytesWritten(),
        io.bytesWritten(IoPurpose.COMPACTION),
        stallMicros(stats));
  }

  /** Data-block lookups served by the block cache (index and filter blocks are pinned, not cached). */
  static long blockCacheDataHits(Stats stats) {
    return stats.cache().hits();
  }

  /** Data-block lookups that missed the block cache. */
  static long blockCacheDataMisses(Stats stats) {
    return stats.cache().misses();
  }

  /** Microseconds writes were slowed down or stopped. */
  static long stallMicros(Stats stats) {
    return stats.stallMicros();
  }

  @Override
  public List<String> unhonouredSettings() {
    return List.of();
  }

  @Override
  public void close() {
    if (db != null) {
      db.close();
      db = null;
    }
  }
}

package dev.cairn.bench.engine;

import java.util.List;
import org.iq80.leveldb.DBFactory;
import org.iq80.leveldb.impl.Iq80DBFactory;

/**
 * The pure-Java LevelDB port (iq80 0.12), what a pure-JVM user would pick. It never reads
 * {@code cacheSize} (no block cache: tables are read through mmap and the OS page cache), has no
 * Bloom filters and reports no statistics; device writes come from {@link ProcessIo}.
 */
public final class LevelDbJavaEngine extends LevelDbApiEngine {
  @Override
  DBFactory factory() {
    return Iq80DBFactory.factory;
  }

  @Override
  String library() {
    return "iq80 leveldb";
  }

  @Override
  List<String> alwaysUnhonoured(EngineSettings s) {
    return List.of(
        "block-cache-bytes=" + s.blockCacheBytes() + ": iq80 leveldb has no block cache (OS page cache only)",
        "bloom-bits-per-key=" + s.bloomBitsPerKey() + ": iq80 leveldb has no Bloom filters",
        "hit-ratio: no block cache, so no hit ratio (reported as NaN)",
        "compaction-bytes: iq80 leveldb reports no statistics (reported as empty)");
  }

  @Override
  public EngineMetrics metrics() {
    return new EngineMetrics(EngineMetrics.UNAVAILABLE, EngineMetrics.UNAVAILABLE, deviceBytesWritten(),
        EngineMetrics.UNAVAILABLE, EngineMetrics.UNAVAILABLE);
  }
}

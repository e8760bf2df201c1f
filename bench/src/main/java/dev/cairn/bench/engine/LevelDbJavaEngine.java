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

  /**
   * iq80 0.12 races a reader against a compaction that deletes a table the reader's version
   * still lists: the read fails with "Could not open table N". A retry sees the new version;
   * a read still failing after five attempts fails the run.
   */
  private static final int RACE_RETRIES = 5;

  @Override
  public byte[] get(byte[] key) {
    for (int attempt = 1; ; attempt++) {
      try {
        return super.get(key);
      } catch (RuntimeException e) {
        if (attempt >= RACE_RETRIES || !isTableRace(e)) {
          throw e;
        }
      }
    }
  }

  @Override
  public int scan(byte[] from, int limit) {
    for (int attempt = 1; ; attempt++) {
      try {
        return super.scan(from, limit);
      } catch (RuntimeException e) {
        if (attempt >= RACE_RETRIES || !isTableRace(e)) {
          throw e;
        }
      }
    }
  }

  private static boolean isTableRace(RuntimeException e) {
    return e.getMessage() != null && e.getMessage().startsWith("Could not open table");
  }

  @Override
  public EngineMetrics metrics() {
    return new EngineMetrics(EngineMetrics.UNAVAILABLE, EngineMetrics.UNAVAILABLE, deviceBytesWritten(),
        EngineMetrics.UNAVAILABLE, EngineMetrics.UNAVAILABLE);
  }
}

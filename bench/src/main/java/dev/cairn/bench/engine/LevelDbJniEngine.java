package dev.cairn.bench.engine;

import java.util.List;
import org.fusesource.leveldbjni.JniDBFactory;
import org.iq80.leveldb.DBFactory;

/**
 * Google's C++ LevelDB (the papers' base system) through leveldbjni 1.8. It has an LRU block
 * cache of {@code cacheSize} bytes but exposes neither a Bloom filter policy nor cache hit
 * counters; device writes come from {@link ProcessIo}, compaction writes from the per-level
 * "Write(MB)" column of {@code leveldb.stats} (MiB resolution).
 */
public final class LevelDbJniEngine extends LevelDbApiEngine {
  @Override
  DBFactory factory() {
    return JniDBFactory.factory;
  }

  @Override
  String library() {
    return "leveldbjni";
  }

  @Override
  List<String> alwaysUnhonoured(EngineSettings s) {
    return List.of(
        "bloom-bits-per-key=" + s.bloomBitsPerKey() + ": leveldbjni exposes no filter policy (no Bloom filters)",
        "hit-ratio: leveldbjni exposes no block cache counters (reported as NaN)");
  }

  @Override
  public long[] bytesWrittenByLevel() {
    return LevelDbStats.bytesWrittenByLevel(db().getProperty("leveldb.stats"));
  }

  @Override
  public EngineMetrics metrics() {
    return new EngineMetrics(EngineMetrics.UNAVAILABLE, EngineMetrics.UNAVAILABLE, deviceBytesWritten(),
        LevelDbStats.compactionBytesWritten(db().getProperty("leveldb.stats")), EngineMetrics.UNAVAILABLE);
  }
}

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

  /** The stats as of the last {@link #compactionsPending} call: any change means work ran since. */
  private String lastStats;

  /**
   * Owed by LevelDB's size rule ({@link LevelDbStats#compactionOwed}), or running: the stats
   * (their compaction times and bytes) changed since the last call. Called once a second by a
   * settling run, so it reads settled only after a second without compaction work.
   */
  @Override
  public synchronized java.util.Optional<Boolean> compactionsPending() {
    String stats = db().getProperty("leveldb.stats");
    boolean pending = LevelDbStats.compactionOwed(stats) || !stats.equals(lastStats);
    lastStats = stats;
    return java.util.Optional.of(pending);
  }

  @Override
  public EngineMetrics metrics() {
    return new EngineMetrics(EngineMetrics.UNAVAILABLE, EngineMetrics.UNAVAILABLE, deviceBytesWritten(),
        LevelDbStats.compactionBytesWritten(db().getProperty("leveldb.stats")), EngineMetrics.UNAVAILABLE);
  }
}

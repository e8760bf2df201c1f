package dev.cairn.bench.features;

import dev.cairn.Cairn;
import dev.cairn.MergeOperator;
import dev.cairn.Options;
import java.nio.file.Path;

/**
 * Cairn at its defaults but for the counter merge operator and the block cache every engine
 * shares: {@code Options.builder().mergeOperator(MergeOperator.counter()).blockCacheBytes(cache)}.
 * The read-modify-write database is opened the same way, though it writes no operand.
 */
final class CairnCounters implements CounterStore {
  private final Cairn db;

  CairnCounters(Path dir, long cacheBytes) {
    this.db = Cairn.open(dir, options(cacheBytes));
  }

  static Options options(long cacheBytes) {
    return Options.builder().mergeOperator(MergeOperator.counter()).blockCacheBytes(cacheBytes).build();
  }

  @Override
  public void merge(byte[] key, byte[] operand) {
    db.merge(key, operand);
  }

  @Override
  public byte[] get(byte[] key) {
    return db.get(key);
  }

  @Override
  public void put(byte[] key, byte[] value) {
    db.put(key, value);
  }

  @Override
  public void close() {
    db.close();
  }
}

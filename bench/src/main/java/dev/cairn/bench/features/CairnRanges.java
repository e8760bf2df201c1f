package dev.cairn.bench.features;

import dev.cairn.Cairn;
import dev.cairn.CairnIterator;
import dev.cairn.Options;
import dev.cairn.Stats;
import dev.cairn.WriteBatch;
import java.nio.file.Path;

/**
 * Cairn for the range-delete experiment: its defaults but for the block cache every engine shares,
 * {@code Options.builder().blockCacheBytes(cache)}; writes unsynced, as RocksDB's are.
 */
final class CairnRanges implements RangeStore {
  private final Cairn db;

  CairnRanges(Path dir, long cacheBytes) {
    this.db = Cairn.open(dir, options(cacheBytes));
  }

  static Options options(long cacheBytes) {
    return Options.builder().blockCacheBytes(cacheBytes).build();
  }

  @Override
  public void putBatch(byte[][] keys, byte[][] values, int count) {
    WriteBatch batch = new WriteBatch();
    for (int i = 0; i < count; i++) {
      batch.put(keys[i], values[i]);
    }
    db.write(batch);
  }

  @Override
  public void deleteBatch(byte[][] keys, int count) {
    WriteBatch batch = new WriteBatch();
    for (int i = 0; i < count; i++) {
      batch.delete(keys[i]);
    }
    db.write(batch);
  }

  @Override
  public void deleteRange(byte[] from, byte[] toExclusive) {
    db.deleteRange(from, toExclusive);
  }

  @Override
  public byte[] get(byte[] key) {
    return db.get(key);
  }

  @Override
  public int scan(byte[] from, int limit, EntryVisitor visitor) {
    int n = 0;
    try (CairnIterator it = db.iterator()) {
      for (it.seek(from); it.isValid() && n < limit; it.next()) {
        visitor.entry(it.key(), it.value());
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
  public void compactAll() {
    db.compactRange(null, null);
  }

  /** A compaction running, a memtable waiting to flush, or a level whose score asks for a compaction. */
  @Override
  public boolean busy() {
    Stats s = db.stats();
    return s.compaction().running() > 0 || s.memtable().immutables() > 0
        || s.levels().stream().anyMatch(l -> l.score() > 1);
  }

  @Override
  public void close() {
    db.close();
  }
}

package dev.cairn.bench.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBFactory;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;

/**
 * What the two LevelDB engines share: both implement the {@code org.iq80.leveldb} API, so open,
 * reads, writes and scans are the same; they differ in the factory and in what they can honour
 * and report. LevelDB's tree shape (L1 10 MiB, ratio 10, 2 MiB tables) is compiled in.
 */
abstract class LevelDbApiEngine implements BenchEngine {
  private final List<String> unhonoured = new ArrayList<>();
  private DB db;
  private long processBytesWrittenAtOpen;

  /** The library's factory. */
  abstract DBFactory factory();

  /** The library's name in messages, e.g. "leveldbjni". */
  abstract String library();

  /** Settings this library ignores whatever their value, with the reason. */
  abstract List<String> alwaysUnhonoured(EngineSettings settings);

  DB db() {
    return db;
  }

  @Override
  public void open(Path dir, EngineSettings s) {
    unhonoured.clear();
    unhonoured.addAll(alwaysUnhonoured(s));
    // With --engine-defaults nothing of the shape is asked: LevelDB's fixed one is its default.
    if (!s.engineDefaults() && s.baseLevelBytes() != EngineSettings.LEVELDB_BASE_LEVEL_BYTES) {
      unhonoured.add("base-level-bytes=" + s.baseLevelBytes() + ": " + library() + " fixes L1 at 10 MiB");
    }
    if (!s.engineDefaults() && s.levelSizeRatio() != EngineSettings.LEVELDB_LEVEL_SIZE_RATIO) {
      unhonoured.add("level-size-ratio=" + s.levelSizeRatio() + ": " + library() + " fixes the ratio at 10");
    }
    if (!s.engineDefaults() && s.targetFileBytes() != EngineSettings.LEVELDB_TARGET_FILE_BYTES) {
      unhonoured.add("target-file-bytes=" + s.targetFileBytes() + ": " + library() + " fixes tables at 2 MiB");
    }
    s.seekDelayUnhonoured(library()).ifPresent(unhonoured::add);
    s.backgroundThreadsUnhonoured(library()).ifPresent(unhonoured::add);
    if (s.directReads()) {
      unhonoured.add("direct-reads: " + library() + " has no O_DIRECT option; misses may hit the page cache");
    }
    Options options = new Options()
        .createIfMissing(true)
        .cacheSize(s.blockCacheBytes())
        .blockSize(s.blockBytes())
        .writeBufferSize((int) Math.min(Integer.MAX_VALUE, s.memtableBytes()))
        .compressionType(s.compression().isNone() ? CompressionType.NONE : CompressionType.SNAPPY);
    if (!s.compression().isNone()) {
      unhonoured.add("compression=" + s.compression() + ": " + library() + " has Snappy only, which it ran in its place");
    }
    processBytesWrittenAtOpen = ProcessIo.bytesWritten();
    try {
      db = factory().open(dir.toFile(), options);
    } catch (IOException e) {
      throw new IllegalStateException(library() + " open of " + dir + " failed: " + e.getMessage(), e);
    }
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
    try (DBIterator it = db.iterator()) {
      for (it.seek(from); it.hasNext() && n < limit; n++) {
        it.next();
      }
    } catch (IOException e) {
      throw new IllegalStateException(library() + " iterator close failed: " + e.getMessage(), e);
    }
    return n;
  }

  /**
   * The LevelDB API has no flush; the load phase's last memtable stays in the WAL, as it would
   * after a real bulk load.
   */
  @Override
  public void flush() {}

  /** Bytes this process wrote since open, or unavailable (see {@link ProcessIo}). */
  long deviceBytesWritten() {
    long now = ProcessIo.bytesWritten();
    return EngineMetrics.available(now) && EngineMetrics.available(processBytesWrittenAtOpen)
        ? now - processBytesWrittenAtOpen
        : EngineMetrics.UNAVAILABLE;
  }

  @Override
  public List<String> unhonouredSettings() {
    return List.copyOf(unhonoured);
  }

  @Override
  public void close() {
    if (db != null) {
      try {
        db.close();
      } catch (IOException e) {
        throw new IllegalStateException(library() + " close failed: " + e.getMessage(), e);
      } finally {
        db = null;
      }
    }
  }
}

package dev.cairn.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.cache.BlockCacheTrace.Kind;
import dev.cairn.cache.BlockCacheTraceReplay.Result;
import dev.cairn.cache.BlockCacheTraceReplay.Written;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replays of hand-written traces against an LRU of two blocks (one shard: exact), whose hits can
 * be counted by hand.
 */
class BlockCacheTraceReplayTest {
  private static final int BLOCK = 4096;
  private static final long TWO_BLOCKS = 2 * BLOCK;

  @TempDir
  Path dir;

  private Path trace(Object... records) throws IOException {
    Path file = dir.resolve("t" + System.nanoTime() + ".trace");
    try (BlockCacheTrace trace = BlockCacheTrace.create(file)) {
      for (int i = 0; i < records.length; i += 3) {
        Kind kind = (Kind) records[i];
        trace.record(kind, (Long) records[i + 1], (Long) records[i + 2], kind == Kind.MISS || kind == Kind.FILE_DROPPED ? 0 : BLOCK);
      }
    }
    return file;
  }

  private static Result lru(Path trace, Written written) throws IOException {
    return BlockCacheTraceReplay.replay(trace, EvictionPolicy.LRU, TWO_BLOCKS, written, 0);
  }

  /** The replay follows requests: a smaller cache misses what the traced one hit, and caches it. */
  @Test
  void aSmallerCacheMissesWhatTheTracedOneHeld() throws IOException {
    Path t = trace(
        Kind.MISS, 1L, 0L, Kind.READ_CACHED, 1L, 0L,     // a: miss
        Kind.MISS, 1L, 1L, Kind.READ_CACHED, 1L, 1L,     // b: miss
        Kind.MISS, 1L, 2L, Kind.READ_CACHED, 1L, 2L,     // c: miss; the LRU of two drops a
        Kind.HIT, 1L, 0L,                                // a: hit in the trace, a miss here (drops b)
        Kind.HIT, 1L, 2L,                                // c: hit
        Kind.HIT, 1L, 0L);                               // a: hit, cached at once by its replayed miss
    Result r = lru(t, Written.AS_WRITTEN);
    assertEquals(6, r.lookups());
    assertEquals(2, r.hits());
  }

  /** A block the traced cache missed and the replayed one holds is not cached twice. */
  @Test
  void aReadTheReplayHitIsNotCachedAgain() throws IOException {
    Path t = trace(
        Kind.MISS, 1L, 0L, Kind.READ_CACHED, 1L, 0L,     // a
        Kind.MISS, 1L, 1L, Kind.READ_CACHED, 1L, 1L,     // b; LRU order a, b
        Kind.MISS, 1L, 0L, Kind.READ_CACHED, 1L, 0L,     // a: a hit here; its caching is skipped
        Kind.MISS, 1L, 2L, Kind.READ_CACHED, 1L, 2L,     // c drops b, the least recent
        Kind.HIT, 1L, 0L);                               // a: still held
    Result r = lru(t, Written.AS_WRITTEN);
    assertEquals(2, r.hits());
  }

  /** Written blocks count only when the replay caches them; a dropped file's blocks leave. */
  @Test
  void writtenBlocksAndDroppedFiles() throws IOException {
    Path t = trace(
        Kind.WRITTEN_CACHED, 2L, 0L,
        Kind.HIT, 2L, 0L,
        Kind.FILE_DROPPED, 2L, 0L,
        Kind.MISS, 2L, 0L);
    assertEquals(1, lru(t, Written.AS_WRITTEN).hits());
    assertEquals(1, lru(t, Written.AS_READ).hits());
    assertEquals(0, lru(t, Written.NOT_CACHED).hits());
  }

  /** Only lookups at or after the measured start count in the measured figures. */
  @Test
  void theMeasuredPartStartsWhereAsked() throws IOException {
    Path t = trace(
        Kind.MISS, 1L, 0L, Kind.READ_CACHED, 1L, 0L,
        Kind.HIT, 1L, 0L);
    BlockCacheTraceReplay.Span span = BlockCacheTraceReplay.span(t);
    assertEquals(3, span.records());
    Result all = BlockCacheTraceReplay.replay(t, EvictionPolicy.LRU, TWO_BLOCKS, Written.AS_WRITTEN, span.at(0));
    assertEquals(2, all.measuredLookups());
    assertEquals(1, all.measuredHits());
    assertEquals(0.5, all.hitRatio());
    Result none = BlockCacheTraceReplay.replay(t, EvictionPolicy.LRU, TWO_BLOCKS, Written.AS_WRITTEN, Long.MAX_VALUE);
    assertEquals(0, none.measuredLookups());
    assertEquals(2, none.lookups());
  }

  @Test
  void aCacheOfNoCapacityIsRefused() throws IOException {
    Path t = trace(Kind.MISS, 1L, 0L);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> BlockCacheTraceReplay.replay(t, EvictionPolicy.LRU, 0, Written.AS_WRITTEN, 0));
    assertEquals("a replayed cache needs a positive capacity, got 0", e.getMessage());
  }
}

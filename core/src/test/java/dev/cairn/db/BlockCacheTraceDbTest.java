package dev.cairn.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.Cairn;
import dev.cairn.CairnIOException;
import dev.cairn.DatabaseClosedException;
import dev.cairn.Options;
import dev.cairn.cache.BlockCacheTrace.Kind;
import dev.cairn.cache.BlockCacheTraceReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Cairn#startBlockCacheTrace}: what a database's trace holds, and the calls it refuses. */
class BlockCacheTraceDbTest {
  @TempDir Path dir;
  @TempDir Path traces;

  private static Options options() {
    return Options.builder().createIfMissing(true).flushCaching(Options.FlushCaching.ALWAYS).build();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Map<Kind, Integer> kinds(Path trace) throws IOException {
    Map<Kind, Integer> counts = new EnumMap<>(Kind.class);
    try (BlockCacheTraceReader r = new BlockCacheTraceReader(trace)) {
      while (r.next()) {
        counts.merge(r.kind(), 1, Integer::sum);
      }
    }
    return counts;
  }

  @Test
  void aTraceHoldsTheFlushesWrittenBlocksAndTheReadsLookups() throws IOException {
    Path trace = traces.resolve("db.trace");
    long records;
    try (Cairn db = Cairn.open(dir, options())) {
      db.startBlockCacheTrace(trace);
      for (int i = 0; i < 1000; i++) {
        db.put(bytes("key" + i), bytes("value" + i));
      }
      db.flush();
      for (int i = 0; i < 1000; i += 10) {
        assertEquals("value" + i, new String(db.get(bytes("key" + i)), StandardCharsets.UTF_8));
      }
      records = db.endBlockCacheTrace();
    }
    Map<Kind, Integer> kinds = kinds(trace);
    assertEquals(records, kinds.values().stream().mapToLong(Integer::longValue).sum());
    assertTrue(kinds.getOrDefault(Kind.WRITTEN_CACHED, 0) > 0, "the flush cached what it wrote: " + kinds);
    assertTrue(kinds.getOrDefault(Kind.HIT, 0) >= 100, "every read found its block: " + kinds);
  }

  @Test
  void closeEndsATraceStillBeingRecorded() throws IOException {
    Path trace = traces.resolve("open.trace");
    try (Cairn db = Cairn.open(dir, options())) {
      db.put(bytes("k"), bytes("v"));
      db.flush();
      db.startBlockCacheTrace(trace);
      db.get(bytes("k"));
    }
    Map<Kind, Integer> kinds = kinds(trace);
    assertTrue(kinds.getOrDefault(Kind.HIT, 0) + kinds.getOrDefault(Kind.MISS, 0) >= 1, "the read is in it: " + kinds);
    Cairn closed = Cairn.open(dir, options());
    closed.close();
    assertThrows(DatabaseClosedException.class, () -> closed.startBlockCacheTrace(traces.resolve("late.trace")));
    assertFalse(Files.exists(traces.resolve("late.trace")));
  }

  @Test
  void refusedCallsChangeNothing() throws IOException {
    Path existing = Files.writeString(traces.resolve("existing.trace"), "someone's file");
    try (Cairn db = Cairn.open(dir, options())) {
      CairnIOException e = assertThrows(CairnIOException.class, () -> db.startBlockCacheTrace(existing));
      assertTrue(e.getMessage().contains("existing.trace"), e.getMessage());
      assertEquals("someone's file", Files.readString(existing));

      IllegalStateException none = assertThrows(IllegalStateException.class, db::endBlockCacheTrace);
      assertTrue(none.getMessage().contains("no block cache trace"), none.getMessage());

      db.startBlockCacheTrace(traces.resolve("first.trace"));
      Path second = traces.resolve("second.trace");
      IllegalStateException twice = assertThrows(IllegalStateException.class, () -> db.startBlockCacheTrace(second));
      assertTrue(twice.getMessage().contains("first.trace"), twice.getMessage());
      assertFalse(Files.exists(second), "the refused trace's file is not left behind");
      assertThrows(IllegalArgumentException.class, () -> db.startBlockCacheTrace(null));
      db.endBlockCacheTrace();
    }
  }
}

package dev.cairn.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.cache.BlockCacheTrace.Kind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A block cache's trace: what is recorded, in what order, and how a damaged trace reads. */
class BlockCacheTraceTest {
  @TempDir
  Path dir;

  private final NettyBlockMemory memory = new NettyBlockMemory();
  private final OffHeapBlockCache cache = new OffHeapBlockCache(1 << 20, memory, EvictionPolicy.TINY_LFU_CLOCK);

  @AfterEach
  void closeCache() {
    cache.close();
    assertEquals(0, memory.allocatedBytes(), "off-heap bytes leaked by the test");
  }

  record Rec(Kind kind, long file, long offset, int bytes) {}

  static List<Rec> read(Path trace) throws IOException {
    List<Rec> out = new ArrayList<>();
    long last = -1;
    try (BlockCacheTraceReader r = new BlockCacheTraceReader(trace)) {
      while (r.next()) {
        assertTrue(r.nanos() >= last, "records are in the order they were taken");
        last = r.nanos();
        out.add(new Rec(r.kind(), r.fileNumber(), r.offset(), r.bytes()));
      }
    }
    return out;
  }

  @Test
  void recordsLookupsInsertsAndDroppedFilesInOrder() throws IOException {
    Path file = dir.resolve("t.trace");
    BlockCacheTrace trace = BlockCacheTrace.create(file);
    cache.startTrace(trace);
    assertNull(cache.lookup(1, 0));
    cache.insertRead(1, 0, 100, target -> {
      target.put(new byte[100]);
      return 90; // the last 10 bytes are a trailer, not contents
    }).close();
    try (CachedBlock hit = cache.lookup(1, 0)) {
      assertEquals(90, hit.size());
    }
    cache.insertWritten(2, 4096, ByteBuffer.wrap(new byte[300]));
    cache.insert(3, 0, ByteBuffer.wrap(new byte[50])).close();
    cache.lookupQuietly(1, 0).close(); // a background read: not recorded
    cache.evictFile(2);
    assertSame(trace, cache.stopTrace());
    assertNull(cache.lookup(1, 4096), "not recorded after the trace stopped");
    trace.close();

    assertEquals(List.of(
        new Rec(Kind.MISS, 1, 0, 0),
        new Rec(Kind.READ_CACHED, 1, 0, 90),
        new Rec(Kind.HIT, 1, 0, 90),
        new Rec(Kind.WRITTEN_CACHED, 2, 4096, 300),
        new Rec(Kind.READ_CACHED, 3, 0, 50),
        new Rec(Kind.FILE_DROPPED, 2, 0, 0)), read(file));
    assertEquals(6, trace.records());
    assertEquals(BlockCacheTrace.HEADER_BYTES + 6L * BlockCacheTrace.RECORD_BYTES, Files.size(file));
  }

  @Test
  void aSecondTraceIsRefusedWhileOneIsRecorded() throws IOException {
    BlockCacheTrace first = BlockCacheTrace.create(dir.resolve("a.trace"));
    cache.startTrace(first);
    BlockCacheTrace second = BlockCacheTrace.create(dir.resolve("b.trace"));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> cache.startTrace(second));
    assertTrue(e.getMessage().contains("a.trace"), e.getMessage());
    assertSame(first, cache.stopTrace());
    assertNull(cache.stopTrace());
    first.close();
    second.close();
  }

  @Test
  void aTraceNeverOverwritesAFile() throws IOException {
    Path existing = Files.writeString(dir.resolve("keep.txt"), "not a trace");
    assertThrows(FileAlreadyExistsException.class, () -> BlockCacheTrace.create(existing));
    assertEquals("not a trace", Files.readString(existing));
  }

  /** A trace of two records: a miss of (1, 0), then a hit of (1, 4096). */
  private Path missThenHit(String name) throws IOException {
    Path file = dir.resolve(name);
    try (BlockCacheTrace trace = BlockCacheTrace.create(file)) {
      trace.record(Kind.MISS, 1, 0, 0);
      trace.record(Kind.HIT, 1, 4096, 4000);
    }
    return file;
  }

  @Test
  void aTraceCutShortReadsUpToItsLastWholeRecord() throws IOException {
    Path file = missThenHit("cut.trace");
    byte[] whole = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(whole, whole.length - 5));
    assertEquals(List.of(new Rec(Kind.MISS, 1, 0, 0)), read(file));
  }

  @Test
  void aRecordOfNoKnownKindIsReportedWithItsFileAndOffset() throws IOException {
    Path file = missThenHit("bad.trace");
    byte[] bytes = Files.readAllBytes(file);
    int second = BlockCacheTrace.HEADER_BYTES + BlockCacheTrace.RECORD_BYTES;
    bytes[second] = 9;
    Files.write(file, bytes);
    try (BlockCacheTraceReader r = new BlockCacheTraceReader(file)) {
      assertTrue(r.next());
      IOException e = assertThrows(IOException.class, r::next);
      assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("byte " + second)
          && e.getMessage().contains("kind 9"), e.getMessage());
    }
  }

  @Test
  void aFileThatIsNotATraceIsRefused() throws IOException {
    Path notTrace = Files.writeString(dir.resolve("x.trace"), "CAIRNSST and more bytes");
    IOException e = assertThrows(IOException.class, () -> new BlockCacheTraceReader(notTrace));
    assertTrue(e.getMessage().contains("not a block cache trace"), e.getMessage());
    Path later = dir.resolve("v2.trace");
    ByteBuffer header = ByteBuffer.allocate(BlockCacheTrace.HEADER_BYTES).put(BlockCacheTrace.MAGIC).putInt(2);
    Files.write(later, header.array());
    e = assertThrows(IOException.class, () -> new BlockCacheTraceReader(later));
    assertTrue(e.getMessage().contains("version 2"), e.getMessage());
  }

  @Test
  void closeIsIdempotentAndRecordsNothingAfter() throws IOException {
    Path file = dir.resolve("c.trace");
    BlockCacheTrace trace = BlockCacheTrace.create(file);
    trace.record(Kind.MISS, 1, 0, 0);
    trace.close();
    trace.close();
    trace.record(Kind.MISS, 2, 0, 0);
    assertEquals(List.of(new Rec(Kind.MISS, 1, 0, 0)), read(file));
    assertFalse(Files.size(file) > BlockCacheTrace.HEADER_BYTES + BlockCacheTrace.RECORD_BYTES);
    assertArrayEquals(BlockCacheTrace.MAGIC, java.util.Arrays.copyOf(Files.readAllBytes(file), 8));
  }
}

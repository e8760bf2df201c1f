package dev.cairn.table;

import static dev.cairn.table.TableTestSupport.build;
import static dev.cairn.table.TableTestSupport.expected;
import static dev.cairn.table.TableTestSupport.userKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.CorruptionException;
import dev.cairn.config.Compression;
import dev.cairn.fs.IoTag;
import dev.cairn.fs.fake.InMemoryFile;
import dev.cairn.iter.InternalIterator;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.LookupResult;
import dev.cairn.key.ValueType;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockTrailer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tables whose blocks are stored compressed (docs/format.md section 3.2): written, read through
 * the cache and past it, appended to, and damaged.
 */
class CompressedTableTest {
  private static final InternalKeyComparator CMP = InternalKeyComparator.INSTANCE;

  /** Entries whose values repeat a short random run, about half of each value new bytes. */
  static TreeMap<byte[], byte[]> compressibleModel(Random rnd, int n, int distinctKeys) {
    TreeMap<byte[], byte[]> model = new TreeMap<>(CMP);
    long seq = 1;
    for (int i = 0; i < n; i++) {
      byte[] user = userKey(rnd.nextInt(distinctKeys) * 2);
      ValueType type = rnd.nextInt(6) == 0 ? ValueType.DELETION : ValueType.VALUE;
      seq += 1 + rnd.nextInt(3);
      byte[] value = new byte[type == ValueType.DELETION ? 0 : 20 + rnd.nextInt(200)];
      int period = 1 + rnd.nextInt(16);
      for (int j = 0; j < value.length; j++) {
        value[j] = j < period ? (byte) rnd.nextInt(256) : value[j - period];
      }
      model.put(InternalKey.encode(user, seq, type), value);
    }
    return model;
  }

  private static TableOptions options(Compression c) {
    return new TableOptions(1024, 8, 10).withCompression(c);
  }

  @ParameterizedTest
  @ValueSource(strings = {"lz4", "zstd", "zstd:9"})
  void aCompressedTableIsVersionTwoSmallerAndAnswersAsTheModel(String codec) throws IOException {
    TreeMap<byte[], byte[]> model = compressibleModel(new Random(17), 3000, 700);
    InMemoryFile plain = new InMemoryFile();
    TableSummary plainSummary = build(plain, options(Compression.none()), model);
    InMemoryFile file = new InMemoryFile();
    TableSummary summary = build(file, options(Compression.parse(codec)), model);
    assertTrue(summary.fileSize() < plainSummary.fileSize() * 3 / 4,
        codec + ": " + summary.fileSize() + " bytes against " + plainSummary.fileSize() + " uncompressed");

    for (HeapBlockCache cache : new HeapBlockCache[] {new HeapBlockCache(1 << 20), null}) {
      try (TableReader r = TableReader.open(file, "t.sst", 7, summary.footerOffset(), cache);
          TableReader p = TableReader.open(plain, "p.sst", 8, plainSummary.footerOffset(), null)) {
        assertEquals(Footer.VERSION_COMPRESSED, r.footer().version());
        assertEquals(Footer.VERSION_UNCOMPRESSED, p.footer().version());
        assertEquals(p.properties().entries(), r.properties().entries());
        assertEquals(p.index().size(), r.index().size(), "the same blocks, stored smaller");
        assertAnswers(model, r);
        assertAnswers(model, r); // the second time from the cache, where there is one
        r.verifyChecksums();
      }
    }
  }

  /**
   * Block compaction weighs an append's incoming entries (raw) against its target's file (as
   * stored): each table scales raw bytes by what its own data blocks store per raw byte.
   */
  @Test
  void aTableCountsRawBytesAsItsOwnBlocksStoreThem() throws IOException {
    TreeMap<byte[], byte[]> model = compressibleModel(new Random(29), 3000, 700);
    InMemoryFile plain = new InMemoryFile();
    TableSummary plainSummary = build(plain, options(Compression.none()), model);
    InMemoryFile file = new InMemoryFile();
    TableSummary summary = build(file, options(Compression.lz4()), model);
    try (TableReader r = TableReader.open(file, "t.sst", 7, summary.footerOffset(), null);
        TableReader p = TableReader.open(plain, "p.sst", 8, plainSummary.footerOffset(), null)) {
      TableProperties compressed = r.properties();
      long raw = compressed.rawKeyBytes() + compressed.rawValueBytes();
      assertEquals(compressed.dataBytes(), compressed.storedBytesFor(raw), "its own entries: its data bytes");
      assertEquals(p.properties().dataBytes(), p.properties().storedBytesFor(raw));
      long incoming = raw / 10;
      assertTrue(compressed.storedBytesFor(incoming) < p.properties().storedBytesFor(incoming) * 3 / 4,
          compressed.storedBytesFor(incoming) + " stored by LZ4 against " + p.properties().storedBytesFor(incoming));
      // Uncompressed blocks store about what they hold (prefix-compressed keys, restart points, trailers).
      assertTrue(Math.abs(p.properties().storedBytesFor(incoming) - incoming) < incoming / 10,
          p.properties().storedBytesFor(incoming) + " for " + incoming + " raw bytes");
    }
    TableProperties empty = new TableProperties(0, 0, new byte[0], new byte[0], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "t", 0);
    assertEquals(1234, empty.storedBytesFor(1234), "a table with no entries has no ratio of its own");
  }

  @Test
  void appendingCompressedBlocksToAVersionOneTableWritesAVersionTwoFooterAndKeepsTheOld() throws IOException {
    TreeMap<byte[], byte[]> oldModel = compressibleModel(new Random(5), 800, 200);
    InMemoryFile file = new InMemoryFile();
    TableSummary first = build(file, options(Compression.none()), oldModel);
    TreeMap<byte[], byte[]> incoming = new TreeMap<>(CMP);
    long seq = 1_000_000;
    for (int k = 10; k < 400; k += 37) {
      incoming.put(InternalKey.encode(userKey(k * 2), seq++, ValueType.VALUE), "new".repeat(30).getBytes(StandardCharsets.UTF_8));
    }
    TreeMap<byte[], byte[]> newModel = new TreeMap<>(CMP);
    newModel.putAll(oldModel);
    newModel.putAll(incoming);
    TableAppender.Result r;
    try (TableReader old = TableReader.open(file, "t.sst", 5, first.footerOffset(), null)) {
      r = new TableAppender(old, file, file, options(Compression.lz4()), 0.02, UnaryOperator.identity(), IoTag.OTHER)
          .append(new ArrayList<>(incoming.entrySet()));
    }
    long second;
    try (TableReader old = TableReader.open(file, "t.sst", 5, first.footerOffset(), null);
        TableReader current = TableReader.open(file, "t.sst", 5, r.summary().footerOffset(), new HeapBlockCache(1 << 20))) {
      assertEquals(Footer.VERSION_UNCOMPRESSED, old.footer().version());
      assertEquals(Footer.VERSION_COMPRESSED, current.footer().version());
      assertAnswers(oldModel, old);
      assertAnswers(newModel, current);
      current.verifyChecksums();
      // Appending uncompressed blocks after compressed ones keeps version 2: the clean blocks
      // it reuses may be compressed.
      TreeMap<byte[], byte[]> more = new TreeMap<>(CMP);
      more.put(InternalKey.encode(userKey(4), seq++, ValueType.VALUE), new byte[] {1, 2, 3});
      TableAppender.Result r2 = new TableAppender(current, file, file, options(Compression.none()), 0.02,
          UnaryOperator.identity(), IoTag.OTHER).append(new ArrayList<>(more.entrySet()));
      second = r2.summary().footerOffset();
    }
    newModel.put(InternalKey.encode(userKey(4), seq - 1, ValueType.VALUE), new byte[] {1, 2, 3});
    try (TableReader latest = TableReader.open(file, "t.sst", 5, second, null)) {
      assertEquals(Footer.VERSION_COMPRESSED, latest.footer().version());
      assertAnswers(newModel, latest);
    }
  }

  /**
   * A compressed block whose payload is damaged but whose checksum was computed over the damage
   * (a bug, or a crafted file): the decoder reports it with file and offset, through the cache and
   * past it, never as data.
   */
  @ParameterizedTest
  @ValueSource(strings = {"lz4", "zstd"})
  void aDamagedPayloadUnderAValidChecksumIsCorruptionWithFileAndOffset(String codec) throws IOException {
    TreeMap<byte[], byte[]> model = compressibleModel(new Random(23), 1500, 400);
    InMemoryFile file = new InMemoryFile();
    TableSummary summary = build(file, options(Compression.parse(codec)), model);
    byte[] bytes = file.bytes();
    BlockHandle victim;
    try (TableReader r = TableReader.open(file, "t.sst", 7, summary.footerOffset(), null)) {
      victim = r.index().handle(r.index().size() / 2);
    }
    int contents = (int) victim.offset();
    int size = (int) victim.size();
    assertTrue(bytes[contents + size] != 0, "the block was stored compressed");
    for (int i = contents + size / 3; i < contents + size; i += 5) {
      bytes[i] ^= 0x5a;
    }
    byte[] trailer = BlockTrailer.encode(bytes, contents, size, bytes[contents + size]);
    System.arraycopy(trailer, 0, bytes, contents + size, trailer.length);
    InMemoryFile damaged = new InMemoryFile(bytes);
    for (HeapBlockCache cache : new HeapBlockCache[] {new HeapBlockCache(1 << 20), null}) {
      try (TableReader r = TableReader.open(damaged, "t.sst", 7, summary.footerOffset(), cache)) {
        CorruptionException e = assertThrows(CorruptionException.class, () -> {
          try (InternalIterator it = r.iterator(cache != null, IoTag.USER_READ)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
              it.value();
            }
          }
        });
        assertEquals("t.sst", e.file());
        assertEquals(victim.offset(), e.offset());
      }
    }
  }

  /**
   * Contents that were decompressed are not the file's bytes: damage found in them (here in a
   * block the cache holds, where a read that decompressed it would have put it) is reported at
   * the block's offset, with its position within the contents in the reason.
   */
  @Test
  void damageInDecompressedContentsIsReportedAtTheBlocksOffset() throws IOException {
    TreeMap<byte[], byte[]> model = compressibleModel(new Random(31), 600, 200);
    InMemoryFile file = new InMemoryFile();
    TableSummary summary = build(file, options(Compression.lz4()), model);
    HeapBlockCache cache = new HeapBlockCache(1 << 20);
    try (TableReader r = TableReader.open(file, "t.sst", 7, summary.footerOffset(), cache)) {
      BlockHandle victim = r.index().handle(0);
      assertTrue(file.bytes()[(int) (victim.offset() + victim.size())] != 0, "the block was stored compressed");
      cache.insert(7, victim.offset(), BlockTest.badRestartCount()).close();
      CorruptionException e = assertThrows(CorruptionException.class, () -> {
        try (InternalIterator it = r.iterator(true, IoTag.USER_READ)) {
          it.seekToFirst();
        }
      });
      assertEquals("t.sst", e.file());
      assertEquals(victim.offset(), e.offset(), e.getMessage());
      assertTrue(e.reason().contains("at byte 8 of the block's 12 decompressed bytes"), e.getMessage());
    }
  }

  @Test
  void aCompressedBlockInAVersionOneTableIsCorruption() throws IOException {
    TreeMap<byte[], byte[]> model = compressibleModel(new Random(29), 600, 200);
    InMemoryFile file = new InMemoryFile();
    TableSummary summary = build(file, options(Compression.lz4()), model);
    byte[] bytes = file.bytes();
    // The same table with its footer rewritten to say version 1.
    long f = summary.footerOffset();
    Footer footer = Footer.decode(java.util.Arrays.copyOfRange(bytes, (int) f, (int) f + Footer.SIZE), "t.sst", f);
    byte[] v1 = new Footer(footer.indexHandle(), footer.filterHandle(), footer.propertiesHandle(),
        footer.previousFooterOffset(), Footer.VERSION_UNCOMPRESSED).encode();
    System.arraycopy(v1, 0, bytes, (int) f, v1.length);
    CorruptionException e = assertThrows(CorruptionException.class, () -> {
      try (TableReader r = TableReader.open(new InMemoryFile(bytes), "t.sst", 7, f, null)) {
        r.verifyChecksums(); // the index, if it was stored as built, opens; the data blocks cannot
      }
    });
    assertTrue(e.getMessage().contains("compressed block"), e.getMessage());
  }

  private static void assertAnswers(TreeMap<byte[], byte[]> model, TableReader r) {
    TableTestSupport.assertScanMatches(model, r);
    for (int k = 0; k < 800; k++) {
      LookupResult expected = expected(model, userKey(k), InternalKey.MAX_SEQUENCE);
      LookupResult got = r.get(userKey(k), InternalKey.MAX_SEQUENCE, true);
      assertEquals(expected.kind(), got.kind(), "key " + k);
      if (expected.kind() == LookupResult.Kind.FOUND) {
        assertArrayEquals(expected.value(), got.value(), "key " + k);
      }
    }
  }
}

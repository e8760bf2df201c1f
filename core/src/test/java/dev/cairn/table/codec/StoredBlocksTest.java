package dev.cairn.table.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.CorruptionException;
import dev.cairn.config.Compression;
import dev.cairn.util.Coding;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class StoredBlocksTest {
  private static final String FILE = "000007.sst";
  private static final long OFFSET = 4096;

  /** 4 KiB of text-like bytes: short random runs repeated, as a codec finds in real values. */
  private static byte[] compressible(long seed) {
    Random r = new Random(seed);
    byte[] b = new byte[4096];
    for (int i = 0; i < b.length; i++) {
      b[i] = i % 64 < 24 ? (byte) ('a' + r.nextInt(26)) : b[i - 24];
    }
    return b;
  }

  private static byte[] random(long seed, int n) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static byte[] copy(BlockCompressor.Stored s) {
    return Arrays.copyOf(s.bytes(), s.length());
  }

  @ParameterizedTest
  @ValueSource(strings = {"lz4", "zstd", "zstd:1", "zstd:19"})
  void aCompressibleBlockIsStoredSmallerUnderItsCodecAndReadsBack(String name) {
    Compression compression = Compression.parse(name);
    byte[] raw = compressible(1);
    try (BlockCompressor c = BlockCompressor.of(compression)) {
      BlockCompressor.Stored s = c.store(raw);
      assertEquals(compression.codec() == Compression.Codec.LZ4 ? 1 : 2, s.type());
      assertTrue(s.length() <= raw.length - raw.length / 8, "stored " + s.length() + " of " + raw.length);
      byte[] stored = copy(s);
      assertEquals(raw.length, StoredBlocks.rawLength(s.type(), stored, 0, stored.length, FILE, OFFSET));
      ByteBuffer back = StoredBlocks.contents(s.type(), stored, 0, stored.length, FILE, OFFSET);
      byte[] out = new byte[back.remaining()];
      back.get(out);
      assertArrayEquals(raw, out);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"lz4", "zstd"})
  void decompressesIntoDirectMemoryAtItsPosition(String name) {
    byte[] raw = compressible(2);
    try (BlockCompressor c = BlockCompressor.of(Compression.parse(name))) {
      BlockCompressor.Stored s = c.store(raw);
      byte[] stored = copy(s);
      ByteBuffer direct = ByteBuffer.allocateDirect(raw.length + 16);
      direct.position(16);
      assertEquals(raw.length, StoredBlocks.decompress(s.type(), stored, 0, stored.length, direct, FILE, OFFSET));
      assertEquals(16 + raw.length, direct.position());
      byte[] out = new byte[raw.length];
      direct.position(16).get(out);
      assertArrayEquals(raw, out);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"lz4", "zstd"})
  void aBlockThatDoesNotShrinkByAnEighthIsStoredAsBuilt(String name) {
    byte[] raw = random(3, 4096);
    try (BlockCompressor c = BlockCompressor.of(Compression.parse(name))) {
      BlockCompressor.Stored s = c.store(raw);
      assertEquals(BlockCodecs.TYPE_NONE, s.type());
      assertSame(raw, s.bytes());
      assertEquals(raw.length, s.length());
    }
  }

  @Test
  void noneStoresEveryBlockAsBuilt() {
    byte[] raw = compressible(4);
    BlockCompressor.Stored s = BlockCompressor.of(Compression.none()).store(raw);
    assertEquals(BlockCodecs.TYPE_NONE, s.type());
    assertSame(raw, s.bytes());
    assertTrue(!BlockCompressor.of(Compression.none()).compresses());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void aRawLengthBeyondWhatThePayloadCanHoldIsCorruptionBeforeAnyAllocation(int type) {
    byte[] stored = new byte[12];
    int at = Coding.putVarint32(stored, 0, 1 << 30); // a gigabyte from a few bytes
    CorruptionException e = assertThrows(CorruptionException.class,
        () -> StoredBlocks.contents(type, stored, 0, at + 4, FILE, OFFSET));
    assertEquals(FILE, e.file());
    assertEquals(OFFSET, e.offset());
    assertTrue(e.getMessage().contains("claims 1073741824 raw bytes"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void aTruncatedRawLengthIsCorruption(int type) {
    byte[] stored = {(byte) 0x80, (byte) 0x80};
    CorruptionException e = assertThrows(CorruptionException.class,
        () -> StoredBlocks.contents(type, stored, 0, stored.length, FILE, OFFSET));
    assertTrue(e.getMessage().contains("malformed raw length"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"lz4", "zstd"})
  void aDamagedPayloadIsCorruptionNamingFileAndOffsetNeverData(String name) {
    byte[] raw = compressible(5);
    try (BlockCompressor c = BlockCompressor.of(Compression.parse(name))) {
      BlockCompressor.Stored s = c.store(raw);
      byte[] stored = copy(s);
      int header = Coding.varintLength(raw.length);
      // The payload cut short: it cannot give the raw length it claims.
      CorruptionException e = assertThrows(CorruptionException.class,
          () -> StoredBlocks.contents(s.type(), stored, 0, header + (stored.length - header) / 2, FILE, OFFSET));
      assertEquals(OFFSET, e.offset());
      assertTrue(e.getMessage().contains("does not decompress"), e.getMessage());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"lz4", "zstd"})
  void aRawLengthThatDisagreesWithThePayloadIsCorruption(String name) {
    byte[] raw = compressible(6);
    try (BlockCompressor c = BlockCompressor.of(Compression.parse(name))) {
      BlockCompressor.Stored s = c.store(raw);
      byte[] stored = copy(s);
      int header = Coding.varintLength(raw.length);
      byte[] lying = new byte[stored.length + 1];
      int at = Coding.putVarint32(lying, 0, raw.length - 1); // one byte fewer than the payload gives
      System.arraycopy(stored, header, lying, at, stored.length - header);
      assertThrows(CorruptionException.class,
          () -> StoredBlocks.contents(s.type(), lying, 0, at + stored.length - header, FILE, OFFSET));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 7, 255})
  void anUnknownTypeIsCorruption(int type) {
    CorruptionException e = assertThrows(CorruptionException.class,
        () -> StoredBlocks.contents(type, new byte[8], 0, 8, FILE, OFFSET));
    assertTrue(e.getMessage().contains("unknown block type " + type), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"lz4", "zstd"})
  void aBlockLargerThanAReaderDecompressesIsStoredAsBuiltAndReadsBack(String codec) {
    byte[] raw = new byte[StoredBlocks.MAX_RAW_BYTES + 1]; // zeros: compressed, it would be tiny
    try (BlockCompressor compressor = BlockCompressor.of(Compression.parse(codec))) {
      BlockCompressor.Stored s = compressor.store(raw);
      assertEquals(BlockCodecs.TYPE_NONE, s.type(), "a reader would refuse it compressed");
      ByteBuffer back = StoredBlocks.contents(s.type(), s.bytes(), 0, s.length(), FILE, OFFSET);
      assertEquals(raw.length, back.remaining());
      byte[] small = new byte[StoredBlocks.MAX_RAW_BYTES];
      assertTrue(compressor.store(small).type() != BlockCodecs.TYPE_NONE, "the largest a reader takes is compressed");
    }
  }
}

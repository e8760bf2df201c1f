package dev.cairn.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cairn.CorruptionException;
import dev.cairn.table.codec.StoredBlocks;
import java.nio.ByteBuffer;

/**
 * Fuzzes each codec's decode path below the block checksum: fuzzed bytes are taken as the stored
 * contents of a compressed block (docs/format.md section 3.2: a raw length, then the codec's
 * payload), as a CRC collision or a writer bug would hand them over. Decoding may only raise
 * {@link CorruptionException}; when it returns, it gave exactly the raw length the block declared,
 * which the reader checked against its bounds before allocating it. Seeds: {@code
 * CodecFuzzTestInputs/lz4/} and {@code zstd/}, blocks the engine's compressor stored.
 */
class CodecFuzzTest {
  @FuzzTest
  void lz4(byte[] data) {
    decode(1, data);
  }

  @FuzzTest
  void zstd(byte[] data) {
    decode(2, data);
  }

  private static void decode(int type, byte[] data) {
    int declared;
    try {
      declared = StoredBlocks.rawLength(type, data, 0, data.length, "fuzz.sst", 0);
    } catch (CorruptionException expected) {
      return;
    }
    assertTrue(declared <= StoredBlocks.MAX_RAW_BYTES, "a raw length past the bound was let through: " + declared);
    try {
      ByteBuffer contents = StoredBlocks.contents(type, data, 0, data.length, "fuzz.sst", 0);
      assertEquals(declared, contents.remaining(), "decoded another length than the block declared");
    } catch (CorruptionException expected) {
      // A payload the codec rejects, or one that gives another length.
    }
  }
}

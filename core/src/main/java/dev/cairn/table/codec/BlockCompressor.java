package dev.cairn.table.codec;

import dev.cairn.config.Compression;
import dev.cairn.util.Coding;

/**
 * Turns a table writer's blocks into their stored form (docs/format.md section 3.2): with a codec,
 * {@code varint32 raw length | codec payload} under the codec's type, unless that does not save
 * at least an eighth of the raw bytes, when the block is stored as built under type 0 (as RocksDB
 * decides: a block that barely shrinks costs a decompression on every miss for nothing).
 *
 * <p>One per writer; not thread-safe. Close it to free the codec's native state.
 */
public final class BlockCompressor implements AutoCloseable {
  /** Stores every block as built. */
  public static final BlockCompressor NONE = new BlockCompressor(null, 0);

  private final BlockCodec codec;
  private final BlockCodec.Compressor compressor;
  private byte[] scratch = new byte[0];

  private BlockCompressor(BlockCodec codec, int level) {
    this.codec = codec;
    this.compressor = codec == null ? null : codec.compressor(level);
  }

  /**
   * A compressor for {@code compression}.
   *
   * @throws BlockCodecs.CodecUnavailableException when the codec's library is missing or does not load
   */
  public static BlockCompressor of(Compression compression) {
    BlockCodec codec = BlockCodecs.forWriting(compression);
    return codec == null ? NONE : new BlockCompressor(codec, compression.level());
  }

  /** Whether this writer may store compressed blocks (a table it writes is format version 2). */
  public boolean compresses() {
    return codec != null;
  }

  /**
   * A block as stored.
   *
   * @param type the block type for its trailer
   * @param bytes the stored contents are {@code bytes[0, length)}; valid until the next {@link
   *     #store} (the raw contents themselves when stored as built)
   */
  public record Stored(int type, byte[] bytes, int length) {}

  /**
   * The stored form of {@code raw}: compressed where that saves an eighth, and as built where it
   * does not or where the block is larger than a reader decompresses ({@link
   * StoredBlocks#MAX_RAW_BYTES}: an index block has no size bound of its own, and a table the
   * reader then refused would be lost).
   */
  public Stored store(byte[] raw) {
    return store(raw, raw.length);
  }

  /** As {@link #store(byte[])} for the block {@code raw[0, length)}. */
  public Stored store(byte[] raw, int length) {
    if (codec == null || length > StoredBlocks.MAX_RAW_BYTES) {
      return new Stored(BlockCodecs.TYPE_NONE, raw, length);
    }
    int room = Coding.varintLength(length) + compressor.maxCompressedBytes(length);
    if (scratch.length < room) {
      scratch = new byte[room];
    }
    int at = Coding.putVarint32(scratch, 0, length);
    int n = compressor.compress(raw, length, scratch, at);
    if (at + n > length - length / 8) {
      return new Stored(BlockCodecs.TYPE_NONE, raw, length);
    }
    return new Stored(codec.type(), scratch, at + n);
  }

  @Override
  public void close() {
    if (compressor != null) {
      compressor.close();
    }
  }
}

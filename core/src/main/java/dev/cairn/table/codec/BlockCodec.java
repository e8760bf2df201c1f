package dev.cairn.table.codec;

import java.nio.ByteBuffer;

/**
 * One compression codec as the table format uses it (docs/format.md section 3.2): the block type
 * id it is stored under, a compressor for one table writer, and a decompressor any reader may call.
 * Implementations wrap a library that is an optional dependency; {@link BlockCodecs} loads them
 * and turns a missing library into an error that names it.
 */
public interface BlockCodec {
  /** The block trailer's type id for this codec: persistent, never reused. */
  int type();

  /** The codec's name in logs, errors and {@code dump-table}. */
  String name();

  /**
   * The largest raw size a stored payload of {@code payloadBytes} may claim: what the codec's
   * format can expand that many bytes into. A larger claim is corruption, refused before any
   * memory is allocated for it.
   */
  long maxRawBytes(int payloadBytes);

  /** A compressor for one writer at {@code level} (0 where the codec has none); not thread-safe. */
  Compressor compressor(int level);

  /**
   * Decompresses {@code src[off, off + len)} into {@code dst} at its position, exactly {@code
   * rawBytes} bytes (position moved past them). Thread-safe.
   *
   * @throws IllegalArgumentException or another runtime exception of the library when the payload
   *     is malformed or does not give exactly {@code rawBytes}; the caller reports it as corruption
   */
  void decompress(byte[] src, int off, int len, ByteBuffer dst, int rawBytes);

  /** Compresses blocks for one table writer. */
  interface Compressor extends AutoCloseable {
    /** The most bytes {@link #compress} may write for {@code rawBytes} bytes. */
    int maxCompressedBytes(int rawBytes);

    /** Compresses {@code src[0, len)} into {@code dst} from {@code dstOff}; returns the bytes written. */
    int compress(byte[] src, int len, byte[] dst, int dstOff);

    /** Frees the compressor's native state, if any. */
    @Override
    default void close() {}
  }
}

package dev.cairn.table.codec;

import java.nio.ByteBuffer;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * LZ4's block format through lz4-java ({@code at.yawk.lz4:lz4-java}). Its compressor and safe
 * decompressor are stateless and thread-safe, so one instance serves every writer and reader; the
 * safe decompressor never writes past the bound it is given, whatever the input.
 */
final class Lz4BlockCodec implements BlockCodec {
  static final String NAME = "lz4";
  static final int TYPE = 1;
  /**
   * LZ4's format can expand no byte into more than about 255 (a match length is coded in runs of
   * 255); the slack covers the smallest payloads.
   */
  private static final int MAX_EXPANSION = 255;

  private final LZ4Compressor compressor;
  private final LZ4SafeDecompressor decompressor;
  private final String implementation;

  Lz4BlockCodec(LZ4Factory factory) {
    this.compressor = factory.fastCompressor();
    this.decompressor = factory.safeDecompressor();
    this.implementation = factory.toString();
  }

  @Override
  public int type() {
    return TYPE;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public long maxRawBytes(int payloadBytes) {
    return (long) payloadBytes * MAX_EXPANSION + 64;
  }

  @Override
  public Compressor compressor(int level) {
    return new Compressor() {
      @Override
      public int maxCompressedBytes(int rawBytes) {
        return compressor.maxCompressedLength(rawBytes);
      }

      @Override
      public int compress(byte[] src, int len, byte[] dst, int dstOff) {
        return compressor.compress(src, 0, len, dst, dstOff, dst.length - dstOff);
      }
    };
  }

  @Override
  public void decompress(byte[] src, int off, int len, ByteBuffer dst, int rawBytes) {
    int at = dst.position();
    int n = decompressor.decompress(ByteBuffer.wrap(src), off, len, dst, at, rawBytes);
    if (n != rawBytes) {
      throw new IllegalArgumentException("gave " + n + " bytes, not the " + rawBytes + " stored");
    }
    dst.position(at + n);
  }

  @Override
  public String toString() {
    return NAME + " (" + implementation + ")";
  }
}

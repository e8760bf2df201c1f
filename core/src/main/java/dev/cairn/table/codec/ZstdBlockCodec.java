package dev.cairn.table.codec;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Zstandard frames through zstd-jni ({@code com.github.luben:zstd-jni}). A compressor holds a
 * native compression context for its writer. Decompression contexts are pooled: one costs a
 * native allocation of about 100 KiB, too much to make per block, and a context is not
 * thread-safe; the pool holds at most as many as readers ever decompressed at once.
 */
final class ZstdBlockCodec implements BlockCodec {
  static final String NAME = "zstd";
  static final int TYPE = 2;
  /**
   * Zstandard's densest form, a run-length block, spends 4 bytes (block header and the byte) on
   * up to 128 KiB; a frame of such blocks expands at most about 32,768 times.
   */
  private static final int MAX_EXPANSION = 1 << 15;

  private final ConcurrentLinkedQueue<ZstdDecompressCtx> idle = new ConcurrentLinkedQueue<>();

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
    return (long) payloadBytes * MAX_EXPANSION;
  }

  @Override
  public Compressor compressor(int level) {
    ZstdCompressCtx ctx = new ZstdCompressCtx().setLevel(level);
    return new Compressor() {
      @Override
      public int maxCompressedBytes(int rawBytes) {
        return Math.toIntExact(Zstd.compressBound(rawBytes));
      }

      @Override
      public int compress(byte[] src, int len, byte[] dst, int dstOff) {
        return ctx.compressByteArray(dst, dstOff, dst.length - dstOff, src, 0, len);
      }

      @Override
      public void close() {
        ctx.close();
      }
    };
  }

  @Override
  public void decompress(byte[] src, int off, int len, ByteBuffer dst, int rawBytes) {
    ZstdDecompressCtx ctx = idle.poll();
    if (ctx == null) {
      ctx = new ZstdDecompressCtx();
    }
    boolean ok = false;
    try {
      int at = dst.position();
      int n;
      if (dst.isDirect()) {
        n = ctx.decompressByteArrayToDirectByteBuffer(dst, at, rawBytes, src, off, len);
      } else {
        n = ctx.decompressByteArray(dst.array(), dst.arrayOffset() + at, rawBytes, src, off, len);
      }
      if (n != rawBytes) {
        throw new IllegalArgumentException("gave " + n + " bytes, not the " + rawBytes + " stored");
      }
      dst.position(at + n);
      ok = true;
    } finally {
      if (ok) {
        idle.offer(ctx);
      } else {
        ctx.close(); // a context that failed on a damaged payload is not trusted again
      }
    }
  }

  @Override
  public String toString() {
    return NAME + " (zstd-jni " + Zstd.class.getPackage().getImplementationVersion() + ")";
  }
}

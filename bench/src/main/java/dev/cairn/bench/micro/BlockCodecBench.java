package dev.cairn.bench.micro;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import dev.cairn.bench.workload.Values;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.key.ValueType;
import dev.cairn.table.block.BlockBuilder;
import io.airlift.compress.Compressor;
import io.airlift.compress.Decompressor;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.zstd.ZstdCompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What compressing and decompressing one 4 KiB data block costs with each library that could
 * carry Cairn's block codecs (docs/decisions/0021): LZ4 from lz4-java (JNI, and its pure-Java
 * implementation) and from aircompressor (pure Java); ZSTD from zstd-jni (JNI, at levels 1 and
 * 3) and from aircompressor (pure Java, one level). The blocks are the engine's own (its block
 * builder, 16-byte user keys, the runner's values at {@code ratio}), 64 of them in turn.
 * {@code decompressDirect} decompresses into direct memory, where a missed block goes (the
 * block cache's). Each setup prints the stored size over the raw size for the library.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BlockCodecBench {
  private static final int BLOCKS = 64;

  @Param({"lz4-java-jni", "lz4-java-pure", "lz4-air", "zstd-jni-1", "zstd-jni-3", "zstd-air"})
  String codec;

  @Param({"0.5"})
  double ratio;

  @Param({"1024"})
  int valueBytes;

  private Codec impl;
  private byte[][] raw;
  private byte[][] stored;
  private int[] storedLength;
  private byte[] out;
  private ByteBuffer directIn;
  private ByteBuffer directOut;
  private int next;

  /** One library's block codec. */
  private interface Codec {
    int compress(byte[] src, int srcLength, byte[] dst);

    int decompress(byte[] src, int srcLength, byte[] dst, int rawLength);

    /** {@code src} heap (a block read), {@code dst} direct (the cache's memory). */
    int decompressDirect(byte[] src, int srcLength, ByteBuffer dst, int rawLength);

    default void close() {}
  }

  @Setup(Level.Trial)
  public void setup() {
    impl = codec(codec);
    Values values = new Values(valueBytes, ratio, 7);
    SplittableRandom random = new SplittableRandom(11);
    raw = new byte[BLOCKS][];
    long key = 0;
    for (int b = 0; b < BLOCKS; b++) {
      BlockBuilder block = new BlockBuilder(16, InternalKeyComparator.INSTANCE, 4096);
      while (block.currentSizeEstimate() < 4096) {
        key += 1 + random.nextInt(16);
        byte[] userKey = String.format("user%012d", key).getBytes(StandardCharsets.UTF_8);
        block.add(InternalKey.encode(userKey, 1_000 + key, ValueType.VALUE), values.next(random));
      }
      raw[b] = block.finish();
    }
    out = new byte[2 * 8192 + 64];
    stored = new byte[BLOCKS][];
    storedLength = new int[BLOCKS];
    long rawBytes = 0;
    long storedBytes = 0;
    for (int b = 0; b < BLOCKS; b++) {
      int n = impl.compress(raw[b], raw[b].length, out);
      stored[b] = Arrays.copyOf(out, n);
      storedLength[b] = n;
      rawBytes += raw[b].length;
      storedBytes += n;
      int back = impl.decompress(stored[b], n, out, raw[b].length);
      if (back != raw[b].length || !Arrays.equals(out, 0, back, raw[b], 0, back)) {
        throw new IllegalStateException(codec + " did not give block " + b + " back");
      }
    }
    directIn = ByteBuffer.allocateDirect(out.length);
    directOut = ByteBuffer.allocateDirect(out.length);
    System.out.printf("%n%s at ratio %.2f: %d raw bytes stored in %d (%.3f)%n", codec, ratio, rawBytes,
        storedBytes, storedBytes / (double) rawBytes);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    impl.close();
  }

  @Benchmark
  public int compress() {
    int b = next++ & (BLOCKS - 1);
    return impl.compress(raw[b], raw[b].length, out);
  }

  @Benchmark
  public int decompress() {
    int b = next++ & (BLOCKS - 1);
    return impl.decompress(stored[b], storedLength[b], out, raw[b].length);
  }

  @Benchmark
  public int decompressDirect() {
    int b = next++ & (BLOCKS - 1);
    directOut.clear();
    return impl.decompressDirect(stored[b], storedLength[b], directOut, raw[b].length);
  }

  private static Codec codec(String name) {
    return switch (name) {
      case "lz4-java-jni" -> lz4Java(LZ4Factory.nativeInstance());
      case "lz4-java-pure" -> lz4Java(LZ4Factory.fastestJavaInstance());
      case "lz4-air" -> aircompressor(new Lz4Compressor(), new Lz4Decompressor());
      case "zstd-jni-1" -> zstdJni(1);
      case "zstd-jni-3" -> zstdJni(3);
      case "zstd-air" -> aircompressor(new ZstdCompressor(), new ZstdDecompressor());
      default -> throw new IllegalArgumentException("unknown codec " + name);
    };
  }

  private static Codec aircompressor(Compressor compressor, Decompressor decompressor) {
    return new Codec() {
      @Override
      public int compress(byte[] src, int srcLength, byte[] dst) {
        return compressor.compress(src, 0, srcLength, dst, 0, dst.length);
      }

      @Override
      public int decompress(byte[] src, int srcLength, byte[] dst, int rawLength) {
        return decompressor.decompress(src, 0, srcLength, dst, 0, rawLength);
      }

      @Override
      public int decompressDirect(byte[] src, int srcLength, ByteBuffer dst, int rawLength) {
        decompressor.decompress(ByteBuffer.wrap(src, 0, srcLength), dst.limit(rawLength));
        return dst.position();
      }
    };
  }

  private static Codec lz4Java(LZ4Factory factory) {
    LZ4Compressor compressor = factory.fastCompressor();
    LZ4SafeDecompressor decompressor = factory.safeDecompressor();
    return new Codec() {
      @Override
      public int compress(byte[] src, int srcLength, byte[] dst) {
        return compressor.compress(src, 0, srcLength, dst, 0, dst.length);
      }

      @Override
      public int decompress(byte[] src, int srcLength, byte[] dst, int rawLength) {
        return decompressor.decompress(src, 0, srcLength, dst, 0, rawLength);
      }

      @Override
      public int decompressDirect(byte[] src, int srcLength, ByteBuffer dst, int rawLength) {
        return decompressor.decompress(ByteBuffer.wrap(src), 0, srcLength, dst, 0, rawLength);
      }
    };
  }

  private static Codec zstdJni(int level) {
    ZstdCompressCtx compressor = new ZstdCompressCtx().setLevel(level);
    ZstdDecompressCtx decompressor = new ZstdDecompressCtx();
    return new Codec() {
      @Override
      public int compress(byte[] src, int srcLength, byte[] dst) {
        return compressor.compressByteArray(dst, 0, dst.length, src, 0, srcLength);
      }

      @Override
      public int decompress(byte[] src, int srcLength, byte[] dst, int rawLength) {
        return decompressor.decompressByteArray(dst, 0, rawLength, src, 0, srcLength);
      }

      @Override
      public int decompressDirect(byte[] src, int srcLength, ByteBuffer dst, int rawLength) {
        return decompressor.decompressByteArrayToDirectByteBuffer(dst, 0, rawLength, src, 0, srcLength);
      }

      @Override
      public void close() {
        compressor.close();
        decompressor.close();
      }
    };
  }
}

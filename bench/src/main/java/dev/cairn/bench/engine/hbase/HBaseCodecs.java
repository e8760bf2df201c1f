package dev.cairn.bench.engine.hbase;

import dev.cairn.config.Compression;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The runner's codec as HBase runs it: a family's {@code COMPRESSION} and the server settings
 * that make HBase load its own codec modules ({@code hbase-compression-lz4} on lz4-java, {@code
 * hbase-compression-zstd} on zstd-jni, both in {@code hbase-lib/}) rather than Hadoop's, whose LZ4
 * and ZSTD codecs need Hadoop's native library. A region server that cannot load a family's codec
 * refuses to create the table (HBase's table sanity check tries it), so a run never goes on
 * uncompressed by mistake.
 */
final class HBaseCodecs {
  static final String LZ4_CODEC_KEY = "hbase.io.compress.lz4.codec";
  static final String ZSTD_CODEC_KEY = "hbase.io.compress.zstd.codec";
  static final String ZSTD_LEVEL_KEY = "hbase.io.compress.zstd.level";
  static final String LZ4_CODEC = "org.apache.hadoop.hbase.io.compress.lz4.Lz4Codec";
  static final String ZSTD_CODEC = "org.apache.hadoop.hbase.io.compress.zstd.ZstdCodec";

  private HBaseCodecs() {}

  /** The family's {@code COMPRESSION}: the name of HBase's {@code Compression.Algorithm}. */
  static String familyCompression(Compression c) {
    return switch (c.codec()) {
      case NONE -> "NONE";
      case LZ4 -> "LZ4";
      case ZSTD -> "ZSTD";
    };
  }

  /** The {@code hbase-site.xml} settings the codec needs: none without compression. */
  static Map<String, String> siteProperties(Compression c) {
    Map<String, String> p = new LinkedHashMap<>();
    switch (c.codec()) {
      case NONE -> { }
      case LZ4 -> p.put(LZ4_CODEC_KEY, LZ4_CODEC);
      case ZSTD -> {
        p.put(ZSTD_CODEC_KEY, ZSTD_CODEC);
        p.put(ZSTD_LEVEL_KEY, Integer.toString(c.level()));
      }
    }
    return p;
  }
}

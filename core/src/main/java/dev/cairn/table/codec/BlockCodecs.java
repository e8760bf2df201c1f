package dev.cairn.table.codec;

import dev.cairn.CairnException;
import dev.cairn.config.Compression;
import java.util.Locale;
import net.jpountz.lz4.LZ4Factory;

/**
 * The codecs by block type id and by {@link Compression}, each loaded the first time it is asked
 * for. A codec's library is an optional dependency of cairn-core: when it is missing from the
 * class path, or its native library does not load on this platform, the codec is unavailable and
 * asking for it throws {@link CodecUnavailableException} naming the codec, the library and the
 * platform. Nothing falls back to another codec or implementation.
 */
public final class BlockCodecs {
  /** The block type of a block stored as built (docs/format.md section 3). */
  public static final int TYPE_NONE = 0;
  /** The largest block type id this release reads. */
  public static final int MAX_TYPE = ZstdBlockCodec.TYPE;

  static final String LZ4_LIBRARY = "at.yawk.lz4:lz4-java";
  static final String ZSTD_LIBRARY = "com.github.luben:zstd-jni";

  private BlockCodecs() {}

  /** Thrown when a codec's library is not on the class path or does not load here. */
  public static final class CodecUnavailableException extends CairnException {
    CodecUnavailableException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * The codec that writes {@code compression}; null for {@link Compression.Codec#NONE}.
   *
   * @throws CodecUnavailableException when its library is missing or does not load
   */
  public static BlockCodec forWriting(Compression compression) {
    return switch (compression.codec()) {
      case NONE -> null;
      case LZ4 -> Lz4.CODEC.get();
      case ZSTD -> Zstd.CODEC.get();
    };
  }

  /**
   * The codec of block type {@code type} (1 to {@link #MAX_TYPE}).
   *
   * @throws IllegalArgumentException for a type no codec has
   * @throws CodecUnavailableException when its library is missing or does not load
   */
  public static BlockCodec forType(int type) {
    return switch (type) {
      case Lz4BlockCodec.TYPE -> Lz4.CODEC.get();
      case ZstdBlockCodec.TYPE -> Zstd.CODEC.get();
      default -> throw new IllegalArgumentException("no codec has block type " + type);
    };
  }

  /** The name of block type {@code type} in dumps and errors, without loading its codec. */
  public static String typeName(int type) {
    return switch (type) {
      case TYPE_NONE -> "as built";
      case Lz4BlockCodec.TYPE -> Lz4BlockCodec.NAME;
      case ZstdBlockCodec.TYPE -> ZstdBlockCodec.NAME;
      default -> "type " + type;
    };
  }

  /** The platform as errors name it: the JVM's operating system and architecture. */
  static String platform() {
    return System.getProperty("os.name").toLowerCase(Locale.ROOT) + "/" + System.getProperty("os.arch");
  }

  /**
   * A codec loaded once: the loaded codec, or the error its loading gave, thrown again (with the
   * same message) at every later ask.
   */
  private static final class Loaded {
    private final BlockCodec codec;
    private final String error;
    private final Throwable cause;

    Loaded(String codecName, String library, Loader loader) {
      BlockCodec c = null;
      String e = null;
      Throwable t = null;
      try {
        c = loader.load();
      } catch (NoClassDefFoundError missing) {
        e = codecName + " block compression needs " + library + " on the class path, and it is not there ("
            + missing.getMessage() + " not found); add it, or write with another compression";
        t = missing;
      } catch (LinkageError | RuntimeException failed) {
        e = codecName + " block compression needs the native library of " + library + ", which did not load on "
            + platform() + ": " + failed;
        t = failed;
      }
      this.codec = c;
      this.error = e;
      this.cause = t;
    }

    BlockCodec get() {
      if (codec == null) {
        throw new CodecUnavailableException(error, cause);
      }
      return codec;
    }
  }

  @FunctionalInterface
  private interface Loader {
    BlockCodec load();
  }

  // Holders: a codec's classes are touched only when it is first asked for, so a missing library
  // costs nothing to a database that never uses it.
  private static final class Lz4 {
    static final Loaded CODEC = new Loaded("LZ4", LZ4_LIBRARY, () -> new Lz4BlockCodec(LZ4Factory.nativeInstance()));
  }

  private static final class Zstd {
    static final Loaded CODEC = new Loaded("ZSTD", ZSTD_LIBRARY, () -> {
      ZstdBlockCodec codec = new ZstdBlockCodec();
      codec.compressor(1).close(); // loads the native library now, not at the first block
      return codec;
    });
  }
}

package dev.cairn.config;

import java.util.Objects;

/**
 * How the blocks of new tables are compressed ({@code Options.Builder#compression}, {@code
 * #bottommostCompression}); docs/format.md section 3 has the stored form. A change applies to the
 * tables written from then on: a table keeps what it was written with, and one database may hold
 * tables of every codec.
 *
 * <p>Each codec's library is an optional dependency: a user who selects one adds it to the class
 * path ({@code at.yawk.lz4:lz4-java} for {@link Codec#LZ4}, {@code com.github.luben:zstd-jni} for
 * {@link Codec#ZSTD}; docs/api.md names the versions), and a database that needs one it cannot load
 * fails to open, naming the codec, the library and the platform.
 *
 * @param codec the codec
 * @param level the codec's level: 0 for {@link Codec#NONE} and {@link Codec#LZ4}; 1 to 22 for
 *     {@link Codec#ZSTD} (higher is smaller and slower to write; reading costs about the same)
 */
public record Compression(Codec codec, int level) {
  /** The codecs, by the block type id each writes (docs/format.md section 3). */
  public enum Codec {
    /** Blocks stored as built. */
    NONE,
    /** LZ4's block format: fast to write and to read, about 0.6 of the bytes on text-like data. */
    LZ4,
    /** Zstandard: smaller than LZ4 at a higher write cost, read about as fast. */
    ZSTD
  }

  /** Zstandard's own default level. */
  public static final int ZSTD_DEFAULT_LEVEL = 3;
  public static final int ZSTD_MAX_LEVEL = 22;

  public Compression {
    Objects.requireNonNull(codec, "codec");
    switch (codec) {
      case NONE, LZ4 -> {
        if (level != 0) {
          throw new IllegalArgumentException(codec + " compression takes no level, got " + level);
        }
      }
      case ZSTD -> {
        if (level < 1 || level > ZSTD_MAX_LEVEL) {
          throw new IllegalArgumentException(
              "ZSTD compression level " + level + " is out of range [1, " + ZSTD_MAX_LEVEL + "]");
        }
      }
    }
  }

  public static Compression none() {
    return new Compression(Codec.NONE, 0);
  }

  public static Compression lz4() {
    return new Compression(Codec.LZ4, 0);
  }

  /** Zstandard at its default level, {@value #ZSTD_DEFAULT_LEVEL}. */
  public static Compression zstd() {
    return zstd(ZSTD_DEFAULT_LEVEL);
  }

  public static Compression zstd(int level) {
    return new Compression(Codec.ZSTD, level);
  }

  public boolean isNone() {
    return codec == Codec.NONE;
  }

  /**
   * The compression a name gives, as the tools and the runner take it: {@code none}, {@code lz4},
   * {@code zstd} or {@code zstd:LEVEL}.
   *
   * @throws IllegalArgumentException naming the valid forms
   */
  public static Compression parse(String name) {
    String n = name.trim().toLowerCase(java.util.Locale.ROOT);
    if (n.equals("none")) {
      return none();
    }
    if (n.equals("lz4")) {
      return lz4();
    }
    if (n.equals("zstd")) {
      return zstd();
    }
    if (n.startsWith("zstd:")) {
      try {
        return zstd(Integer.parseInt(n.substring("zstd:".length())));
      } catch (NumberFormatException e) {
        // falls through to the message below
      }
    }
    throw new IllegalArgumentException(
        "unknown compression '" + name + "'; valid: none, lz4, zstd, zstd:LEVEL (1 to " + ZSTD_MAX_LEVEL + ")");
  }

  @Override
  public String toString() {
    return codec == Codec.ZSTD ? "zstd:" + level : codec.name().toLowerCase(java.util.Locale.ROOT);
  }
}

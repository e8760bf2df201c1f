package dev.cairn.table;

import dev.cairn.Options;
import dev.cairn.config.Compression;
import java.util.Objects;

/**
 * How a table is built.
 *
 * @param blockBytes target size of a data block's contents (a block is cut once it reaches it)
 * @param restartInterval keys between restart points in data blocks
 * @param bloomBitsPerKey Bloom filter bits per user key; 0 writes no filter
 * @param filterReserve extra filter capacity as a fraction of the table's keys, for keys that
 *     block compaction appends later (docs/format.md section 8); 0 for none
 * @param compression how data and index blocks are stored (docs/format.md section 3.2)
 */
public record TableOptions(int blockBytes, int restartInterval, int bloomBitsPerKey, double filterReserve,
    Compression compression) {
  public static final TableOptions DEFAULT = new TableOptions(4096, 16, 10);

  /** Options without filter reserve or compression. */
  public TableOptions(int blockBytes, int restartInterval, int bloomBitsPerKey) {
    this(blockBytes, restartInterval, bloomBitsPerKey, 0);
  }

  /** Options without compression. */
  public TableOptions(int blockBytes, int restartInterval, int bloomBitsPerKey, double filterReserve) {
    this(blockBytes, restartInterval, bloomBitsPerKey, filterReserve, Compression.none());
  }

  public TableOptions {
    Objects.requireNonNull(compression, "compression");
    if (!(filterReserve >= 0 && filterReserve <= 4)) {
      throw new IllegalArgumentException("filterReserve must lie in [0, 4]: " + filterReserve);
    }
    if (blockBytes < 1) {
      throw new IllegalArgumentException("blockBytes must be >= 1: " + blockBytes);
    }
    if (restartInterval < 1) {
      throw new IllegalArgumentException("restartInterval must be >= 1: " + restartInterval);
    }
    if (bloomBitsPerKey < 0) {
      throw new IllegalArgumentException("bloomBitsPerKey must be >= 0: " + bloomBitsPerKey);
    }
  }

  /** These options with {@code reserve} extra filter capacity. */
  public TableOptions withFilterReserve(double reserve) {
    return new TableOptions(blockBytes, restartInterval, bloomBitsPerKey, reserve, compression);
  }

  /** These options with blocks stored as {@code c} stores them. */
  public TableOptions withCompression(Compression c) {
    return new TableOptions(blockBytes, restartInterval, bloomBitsPerKey, filterReserve, c);
  }

  /**
   * These options for a table written to a level that {@code bottommost} says has no data below
   * it: {@link Options#bottommostCompression()} there, else these options unchanged.
   */
  public TableOptions forOutput(Options options, boolean bottommost) {
    return bottommost ? withCompression(options.bottommostCompression()) : this;
  }

  /** The database's table options, with {@link Options#compression()} (a flush's). */
  public static TableOptions from(Options options) {
    return new TableOptions(options.blockBytes(), options.blockRestartInterval(), options.bloomBitsPerKey(), 0,
        options.compression());
  }
}

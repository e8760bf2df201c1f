package dev.cairn.table;

import dev.cairn.Options;

/**
 * How a table is built.
 *
 * @param blockBytes target size of a data block's contents (a block is cut once it reaches it)
 * @param restartInterval keys between restart points in data blocks
 * @param bloomBitsPerKey Bloom filter bits per user key; 0 writes no filter
 * @param filterReserve extra filter capacity as a fraction of the table's keys, for keys that
 *     block compaction appends later (docs/format.md section 8); 0 for none
 */
public record TableOptions(int blockBytes, int restartInterval, int bloomBitsPerKey, double filterReserve) {
  public static final TableOptions DEFAULT = new TableOptions(4096, 16, 10);

  /** Options without filter reserve. */
  public TableOptions(int blockBytes, int restartInterval, int bloomBitsPerKey) {
    this(blockBytes, restartInterval, bloomBitsPerKey, 0);
  }

  public TableOptions {
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
    return new TableOptions(blockBytes, restartInterval, bloomBitsPerKey, reserve);
  }

  public static TableOptions from(Options options) {
    return new TableOptions(
        options.blockBytes(), options.blockRestartInterval(), options.bloomBitsPerKey());
  }
}

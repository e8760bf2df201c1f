package dev.cairn.table;

import dev.cairn.Options;

/**
 * How a table is built.
 *
 * @param blockBytes target size of a data block's contents (a block is cut once it reaches it)
 * @param restartInterval keys between restart points in data blocks
 * @param bloomBitsPerKey Bloom filter bits per user key; 0 writes no filter
 */
public record TableOptions(int blockBytes, int restartInterval, int bloomBitsPerKey) {
  public static final TableOptions DEFAULT = new TableOptions(4096, 16, 10);

  public TableOptions {
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

  public static TableOptions from(Options options) {
    return new TableOptions(
        options.blockBytes(), options.blockRestartInterval(), options.bloomBitsPerKey());
  }
}

package dev.cairn.cache;

/** Cache key: a block is named by its table file and its offset in that file. */
record BlockKey(long fileNumber, long offset) {}

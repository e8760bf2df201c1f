package dev.cairn.table;

import dev.cairn.fs.IoTag;
import dev.cairn.iter.InternalIterator;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockIterator;

/**
 * Iterates a table: the pinned index in key order, and within it one data block at a time.
 * Only the current block is pinned; it is released when the iterator moves to another block or
 * closes. Blocks may lie anywhere in the file (appends); the index order is the key order. A
 * {@link Readahead}, if it has one (any iterator on a file that bypasses the page cache, a
 * compaction's on any file), serves misses of blocks read in file order.
 */
final class TableIterator implements InternalIterator {
  private final TableReader reader;
  private final TableIndex index;
  private final boolean fillCache;
  private final IoTag tag;
  private final Readahead readahead; // null: every miss reads its block alone

  private int blockIndex = -1;
  private BlockRef current;
  private BlockIterator blockIter; // null when past the end or not positioned

  TableIterator(TableReader reader, boolean fillCache, IoTag tag, Readahead readahead) {
    this.reader = reader;
    this.index = reader.index();
    this.fillCache = fillCache;
    this.tag = tag;
    this.readahead = readahead;
  }

  @Override
  public boolean isValid() {
    return blockIter != null && blockIter.isValid();
  }

  @Override
  public void seekToFirst() {
    openBlock(0);
    if (blockIter != null) {
      blockIter.seekToFirst();
    }
    skipExhaustedBlocks();
  }

  @Override
  public void seek(byte[] target) {
    openBlock(index.seek(target));
    if (blockIter != null) {
      blockIter.seek(target);
    }
    skipExhaustedBlocks();
  }

  @Override
  public void seekToLast() {
    openBlock(index.size() - 1);
    if (blockIter != null) {
      blockIter.seekToLast();
    }
    skipExhaustedBlocksBackward();
  }

  @Override
  public void next() {
    assert isValid() : "next() on an invalid table iterator";
    blockIter.next();
    skipExhaustedBlocks();
  }

  @Override
  public void prev() {
    assert isValid() : "prev() on an invalid table iterator";
    blockIter.prev();
    skipExhaustedBlocksBackward();
  }

  @Override
  public byte[] key() {
    assert isValid();
    return blockIter.key(); // a well-formed internal key: the block iterator checks each one
  }

  @Override
  public byte[] value() {
    assert isValid();
    return blockIter.value();
  }

  @Override
  public byte[] ownedValue() {
    assert isValid();
    return blockIter.ownedValue();
  }

  @Override
  public void close() {
    release();
    blockIter = null;
    if (readahead != null) {
      readahead.close();
    }
  }

  private void skipExhaustedBlocks() {
    while (blockIter != null && !blockIter.isValid()) {
      openBlock(blockIndex + 1);
      if (blockIter != null) {
        blockIter.seekToFirst();
      }
    }
  }

  private void skipExhaustedBlocksBackward() {
    while (blockIter != null && !blockIter.isValid()) {
      if (blockIndex <= 0) {
        release();
        blockIter = null;
        return;
      }
      openBlock(blockIndex - 1);
      blockIter.seekToLast();
    }
  }

  private void openBlock(int i) {
    if (i == blockIndex && current != null) {
      return; // reuse the pinned block (e.g. repeated seeks into the same block)
    }
    release();
    blockIndex = i;
    blockIter = null;
    if (i >= 0 && i < index.size()) {
      BlockHandle h = index.handle(i);
      if (readahead != null) {
        readahead.noteAccess(i);
      }
      current = reader.acquireDataBlock(h, fillCache, tag, readahead);
      blockIter = current.block().internalKeyIterator();
    }
  }

  private void release() {
    if (current != null) {
      BlockRef r = current;
      current = null;
      r.close();
    }
  }
}

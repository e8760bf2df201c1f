package dev.cairn.table;

import dev.cairn.key.InternalKey;
import dev.cairn.key.ValueType;
import dev.cairn.table.block.Block;
import dev.cairn.table.block.BlockIterator;

/**
 * Entry counts of a set of entries or blocks, to keep a table's properties exact when it is
 * written from blocks rather than entries ({@link TableAppender}, {@link TableSubset}), and as
 * {@link TableBuilder} adds entries.
 */
final class EntryTotals {
  long entries;
  long deletions;
  long rawKeyBytes;
  long rawValueBytes;
  long minSeq = Long.MAX_VALUE;
  long maxSeq = 0;

  void add(byte[] key, byte[] value) {
    entries++;
    if (InternalKey.type(key) == ValueType.DELETION) {
      deletions++;
    }
    rawKeyBytes += key.length;
    rawValueBytes += value.length;
    long seq = InternalKey.sequence(key);
    minSeq = Math.min(minSeq, seq);
    maxSeq = Math.max(maxSeq, seq);
  }

  void addBlock(Block block) {
    try (BlockIterator it = block.internalKeyIterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        add(it.key(), it.value());
      }
    }
  }
}

package dev.cairn.table;

import dev.cairn.CorruptionException;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.table.block.Block;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockIterator;
import dev.cairn.util.ByteSource;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A decoded index block (docs/format.md section 4), pinned on-heap for the reader's life: the
 * separators in key order and their data block handles, which may point anywhere before the
 * footer and in any file order. Immutable.
 */
final class TableIndex {
  private static final InternalKeyComparator CMP = InternalKeyComparator.INSTANCE;

  private final byte[][] separators;
  private final BlockHandle[] handles;
  /** dataBefore[i] = total size (with trailers) of blocks 0..i-1 in index order. */
  private final long[] dataBefore;

  private TableIndex(byte[][] separators, BlockHandle[] handles) {
    this.separators = separators;
    this.handles = handles;
    this.dataBefore = new long[handles.length + 1];
    for (int i = 0; i < handles.length; i++) {
      dataBefore[i + 1] = dataBefore[i] + handles[i].end() - handles[i].offset();
    }
  }

  /** Decodes and checks verified index block contents read from {@code indexOffset}. */
  static TableIndex decode(ByteBuffer contents, String fileName, long indexOffset, long footerOffset) {
    List<byte[]> keys = new ArrayList<>();
    List<BlockHandle> hs = new ArrayList<>();
    try (BlockIterator it = new Block(contents, fileName, indexOffset).internalKeyIterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        byte[] key = it.key();
        if (!keys.isEmpty() && CMP.compare(keys.get(keys.size() - 1), key) >= 0) {
          throw new CorruptionException(fileName, indexOffset,
              "index keys out of order at entry " + keys.size());
        }
        byte[] value = it.value();
        ByteSource src = new ByteSource(value, fileName, indexOffset);
        BlockHandle h = BlockHandle.decode(src);
        if (src.hasRemaining() || h.end() > footerOffset) {
          throw new CorruptionException(fileName, indexOffset,
              "bad data block handle " + h + " in index entry " + keys.size());
        }
        keys.add(key);
        hs.add(h);
      }
    }
    return new TableIndex(keys.toArray(new byte[0][]), hs.toArray(new BlockHandle[0]));
  }

  int size() {
    return handles.length;
  }

  byte[] separator(int i) {
    return separators[i];
  }

  BlockHandle handle(int i) {
    return handles[i];
  }

  /** Index of the first separator {@code >= target}, or {@link #size()} if none. */
  int seek(byte[] target) {
    int lo = 0;
    int hi = separators.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (CMP.compare(separators[mid], target) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Bytes of data blocks (with trailers) before block {@code i} in key order. */
  long dataBefore(int i) {
    return dataBefore[i];
  }
}

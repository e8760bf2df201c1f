package dev.cairn.table;

import dev.cairn.CorruptionException;
import dev.cairn.key.InternalKey;
import dev.cairn.key.InternalKeyComparator;
import dev.cairn.table.block.Block;
import dev.cairn.table.block.BlockHandle;
import dev.cairn.table.block.BlockIterator;
import dev.cairn.util.ByteSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A decoded index block (docs/format.md section 4), pinned on-heap for the reader's life: the
 * separators in key order and their data block handles, which may point anywhere before the
 * footer and in any file order. Immutable.
 *
 * <p>Every point read and iterator seek binary-searches a table's index, and a 64 MiB table has
 * some 16,000 separators, each its own array: a search touched about 14 of them scattered over
 * the heap, 15% of a read's CPU when half the reads miss the block cache. So {@link
 * #seek} searches a {@code long[]} first: for each separator, the 8 bytes of its user key that
 * follow the prefix all of the table's separators share ({@link #keyPrefixAt}), which orders
 * separators as their user keys do, only not strictly. Whole keys are compared only among the
 * separators whose 8 bytes equal the target's, usually one.
 */
final class TableIndex {
  private static final InternalKeyComparator CMP = InternalKeyComparator.INSTANCE;

  private final byte[][] separators;
  private final BlockHandle[] handles;
  /** The user key bytes every separator starts with (those of the first and last agree on). */
  private final byte[] sharedPrefix;
  /** keyPrefixes[i] = {@link #keyPrefixAt} of separator i's user key: ascending, unsigned. */
  private final long[] keyPrefixes;
  /** dataBefore[i] = total size (with trailers) of blocks 0..i-1 in index order. */
  private final long[] dataBefore;
  /**
   * byFileOffset[k] = the index position of the k-th block from the file's start; null while the
   * blocks lie in index order, as they do until an append writes a rewritten block after a kept
   * one that follows it in the index.
   */
  private final int[] byFileOffset;
  /** {@link #heapBytes}. */
  private final long heapBytes;

  private TableIndex(byte[][] separators, BlockHandle[] handles) {
    this.separators = separators;
    this.handles = handles;
    this.sharedPrefix = separators.length == 0 ? new byte[0] : sharedUserKeyPrefix(
        separators[0], separators[separators.length - 1]);
    this.keyPrefixes = new long[separators.length];
    for (int i = 0; i < separators.length; i++) {
      keyPrefixes[i] = keyPrefixAt(separators[i], sharedPrefix.length);
    }
    this.dataBefore = new long[handles.length + 1];
    for (int i = 0; i < handles.length; i++) {
      dataBefore[i + 1] = dataBefore[i] + handles[i].end() - handles[i].offset();
    }
    this.byFileOffset = inIndexOrder(handles) ? null : IntStream.range(0, handles.length).boxed()
        .sorted(Comparator.comparingLong(i -> handles[i].offset()))
        .mapToInt(Integer::intValue).toArray();
    this.heapBytes = estimateHeapBytes(separators) + (byFileOffset == null ? 0 : 16 + 4L * handles.length);
  }

  private static boolean inIndexOrder(BlockHandle[] handles) {
    for (int i = 1; i < handles.length; i++) {
      if (handles[i].offset() < handles[i - 1].offset()) {
        return false;
      }
    }
    return true;
  }

  /*
   * The heap an index holds, estimated for a 64-bit JVM with compressed references: per entry a
   * separator array (16-byte header, contents rounded up to 8), a BlockHandle (12-byte header
   * and two longs, 32 bytes), a reference to each, and one long in each of keyPrefixes and
   * dataBefore; plus the four arrays' headers (and an int an entry more for an appended table's
   * file order). About 95 bytes a 4 KiB block of 1 KiB values
   * with 32-byte keys (separators are shortened), 2.3% of the data: what the table cache's byte
   * bound counts.
   */
  private static long estimateHeapBytes(byte[][] separators) {
    long bytes = 4 * 16 + 64;
    for (byte[] s : separators) {
      bytes += align8(16 + s.length) + 32 + 2 * 4 + 2 * 8;
    }
    return bytes;
  }

  private static long align8(long n) {
    return (n + 7) & ~7L;
  }

  /** Estimated heap this index holds (see {@link #estimateHeapBytes}). */
  long heapBytes() {
    return heapBytes;
  }

  /** Decodes and checks a verified index block, whose data blocks must end by {@code footerOffset}. */
  static TableIndex decode(Block indexBlock, long footerOffset) {
    String fileName = indexBlock.fileName();
    long indexOffset = indexBlock.blockOffset();
    List<byte[]> keys = new ArrayList<>();
    List<BlockHandle> hs = new ArrayList<>();
    try (BlockIterator it = indexBlock.internalKeyIterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        byte[] key = it.key();
        if (!keys.isEmpty() && CMP.compare(keys.get(keys.size() - 1), key) >= 0) {
          throw new CorruptionException(fileName, indexOffset,
              "index keys out of order at entry " + keys.size());
        }
        byte[] value = it.value();
        ByteSource src = new ByteSource(value, fileName, indexOffset);
        BlockHandle h;
        try {
          h = BlockHandle.decode(src);
        } catch (CorruptionException e) {
          // Its offset would be the block's plus a position within the entry's value: no byte of
          // the file. The entry's block is where to look.
          throw new CorruptionException(fileName, indexOffset,
              "bad data block handle in index entry " + keys.size() + ": " + e.reason());
        }
        if (src.hasRemaining() || !h.endsBy(footerOffset)) {
          throw new CorruptionException(fileName, indexOffset,
              "bad data block handle " + h + " in index entry " + keys.size());
        }
        keys.add(key);
        hs.add(h);
      }
    }
    TableIndex index = of(keys.toArray(new byte[0][]), hs.toArray(new BlockHandle[0]));
    index.checkDisjoint(fileName, indexOffset);
    return index;
  }

  /**
   * Each index entry names a block of its own: an append writes rewritten blocks after the kept
   * ones, never over them. Entries whose blocks share bytes are corruption, and would otherwise
   * serve one block's keys for another's range with every checksum passing.
   */
  private void checkDisjoint(String fileName, long indexOffset) {
    for (int k = 1; k < handles.length; k++) {
      BlockHandle previous = handles[byFileOffset(k - 1)];
      BlockHandle next = handles[byFileOffset(k)];
      if (next.offset() < previous.end()) {
        throw new CorruptionException(fileName, indexOffset,
            "index entries name overlapping data blocks " + previous + " and " + next);
      }
    }
  }

  /** An index of {@code separators} (internal keys in strictly increasing order) and handles. */
  static TableIndex of(byte[][] separators, BlockHandle[] handles) {
    return new TableIndex(separators, handles);
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
    int shared = sharedPrefix.length;
    int targetUserKey = target.length - InternalKey.TRAILER_BYTES;
    int c = Arrays.compareUnsigned(target, 0, Math.min(shared, targetUserKey), sharedPrefix, 0,
        Math.min(shared, targetUserKey));
    if (c != 0 || targetUserKey < shared) {
      // The target's user key leaves the shared prefix (or is a proper prefix of it, so below
      // every separator): it sorts before all separators or after all of them.
      return c > 0 ? separators.length : 0;
    }
    long key = keyPrefixAt(target, shared);
    int lo = firstPrefixAtLeast(key, 0, separators.length, false);
    int hi = firstPrefixAtLeast(key, lo, separators.length, true);
    // Separators before lo have smaller user keys, from hi on larger ones; compare whole keys
    // only in between, where the 8 bytes tie.
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

  /** The first i in [from, to) with keyPrefixes[i] >= key (> key if {@code strictly}), else to. */
  private int firstPrefixAtLeast(long key, int from, int to, boolean strictly) {
    int lo = from;
    int hi = to;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int c = Long.compareUnsigned(keyPrefixes[mid], key);
      if (c < 0 || (strictly && c == 0)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * The 8 user key bytes of {@code internalKey} from {@code from} on, big-endian, zero-padded past
   * the user key's end. For user keys that agree before {@code from}, a smaller result means a
   * smaller user key (padding with zeros keeps a key's prefix at or below the key), and equal
   * results decide nothing.
   */
  static long keyPrefixAt(byte[] internalKey, int from) {
    int end = internalKey.length - InternalKey.TRAILER_BYTES;
    long v = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      int at = from + i;
      v = (v << 8) | (at < end ? internalKey[at] & 0xff : 0);
    }
    return v;
  }

  /** The user key bytes that {@code first} and {@code last}, and so every key between, share. */
  private static byte[] sharedUserKeyPrefix(byte[] first, byte[] last) {
    int firstEnd = first.length - InternalKey.TRAILER_BYTES;
    int lastEnd = last.length - InternalKey.TRAILER_BYTES;
    int mismatch = Arrays.mismatch(first, 0, firstEnd, last, 0, lastEnd);
    int shared = mismatch < 0 ? firstEnd : mismatch;
    return Arrays.copyOf(first, shared);
  }

  /** Index position of the {@code k}-th block from the file's start. */
  int byFileOffset(int k) {
    return byFileOffset == null ? k : byFileOffset[k];
  }

  /** How many blocks start before {@code offset} in the file. */
  int blocksStartingBefore(long offset) {
    int lo = 0;
    int hi = handles.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (handles[byFileOffset(mid)].offset() < offset) {
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
